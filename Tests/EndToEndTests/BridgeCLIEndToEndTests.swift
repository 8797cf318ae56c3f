import Foundation
import Testing

/// The phone bridge's configuration and reports on the command line, with
/// the built binary: `--vdir`, `$NEXTUP_VDIR`, `vdir =` in the config file,
/// `doctor`, and the one-line refusals.
@Suite struct BridgeCLIEndToEndTests {
    let scratch = Scratch()

    func nextup(_ extra: [String: String] = [:]) -> NextupProcess {
        NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path].merging(extra) { $1 })
    }

    func makeVdir(_ name: String = "vdir") throws -> URL {
        let url = scratch.path(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func theVdirComesFromTheOptionTheEnvironmentOrTheConfigFile() throws {
        let byOption = try makeVdir("by-option"), byEnv = try makeVdir("by-env"), byConfig = try makeVdir("by-config")
        let config = scratch.path("config.toml")
        try Data("vdir = \"\(byConfig.path)\"\n".utf8).write(to: config)
        let id = try nextup().run("add", "Somewhere on a phone").out
        #expect(try nextup().run("--vdir", byOption.path, "sync").stdout.contains("1 file written"))
        #expect(try nextup(["NEXTUP_VDIR": byEnv.path]).run("sync").stdout.contains("1 file written"))
        #expect(try nextup(["NEXTUP_CONFIG": config.path]).run("sync").stdout.contains("1 file written"))
        for folder in [byOption, byEnv, byConfig] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(id).ics").path))
        }
        // The option wins over the environment, which wins over the file.
        let both = try nextup(["NEXTUP_VDIR": byEnv.path, "NEXTUP_CONFIG": config.path]).run("doctor")
        #expect(both.stdout.contains("vdir:") && both.stdout.contains(byEnv.path), "\(both)")
    }

    @Test func doctorReportsTheVdirAndAMissingOneIsAProblem() throws {
        let vdir = try makeVdir()
        _ = try nextup().run("add", "One")
        _ = try nextup().run("add", "Two")
        _ = try nextup(["NEXTUP_VDIR": vdir.path]).run("sync")
        let fine = try nextup(["NEXTUP_VDIR": vdir.path]).run("doctor")
        #expect(fine.status == 0, "\(fine)")
        #expect(fine.stdout.contains("vdir:") && fine.stdout.contains("(2 .ics files; 2 known to the bridge)"), "\(fine)")
        let missing = try nextup(["NEXTUP_VDIR": scratch.path("unmounted").path]).run("doctor")
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("problem: the vdir \(scratch.path("unmounted").path) does not exist"), "\(missing)")
        // Emptied (a vdirsyncer reset): reported, nothing deleted.
        for name in try FileManager.default.contentsOfDirectory(atPath: vdir.path) {
            try FileManager.default.removeItem(at: vdir.appendingPathComponent(name))
        }
        let emptied = try nextup(["NEXTUP_VDIR": vdir.path]).run("sync")
        #expect(emptied.status == 0)
        #expect(emptied.stdout.contains("is empty but held 2 task files: nothing deleted"), "\(emptied)")
        #expect(try nextup().run("count").out == "2")
        #expect(try nextup(["NEXTUP_VDIR": vdir.path]).run("doctor").stdout.contains("problem: the vdir"))
    }

    @Test func aMissingVdirDoesNotHoldUpThePeerFolder() throws {
        let peer = try makeVdir("peer")
        _ = try nextup().run("add", "Still published")
        let result = try nextup(["NEXTUP_PEER": peer.path, "NEXTUP_VDIR": scratch.path("unmounted").path]).run("sync")
        #expect(result.status == 1)
        #expect(result.stdout.contains("uploaded"), "\(result)")
        #expect(result.stderr == "nextup: the vdir \(scratch.path("unmounted").path) does not exist; create it (or mount it) first\n", "\(result)")
        let logs = try FileManager.default.contentsOfDirectory(atPath: peer.path).filter { $0.hasSuffix(".log") }
        #expect(logs.count == 1)
    }

    @Test func aMissingOrEmptyVdirIsRefusedInOneLine() throws {
        let missing = try nextup().run("--vdir", scratch.path("nope").path, "sync")
        #expect(missing.status == 1)
        #expect(missing.stderr == "nextup: the vdir \(scratch.path("nope").path) does not exist; create it (or mount it) first\n", "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("nope").path))
        let empty = try nextup().run("--vdir", "", "sync")
        #expect(empty.status != 0)
        #expect(empty.stderr.contains("--vdir was given an empty path"), "\(empty)")
        let none = try nextup().run("sync")
        #expect(none.status == 1)
        #expect(none.stderr.contains("no peer folder or vdir is configured"))
    }
}
