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

    /// A phone's rewrite of `<id>.ics` in `vdir`: a new SUMMARY, no LAST-MODIFIED
    /// (so only the bridge's memory can tell that the phone changed it).
    func phoneRename(_ id: String, in vdir: URL, to title: String) throws {
        let url = vdir.appendingPathComponent("\(id).ics")
        let text = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\r\n")
            .filter { !$0.hasPrefix("LAST-MODIFIED") }
            .map { $0.hasPrefix("SUMMARY:") ? "SUMMARY:\(title)" : $0 }
        try FileManager.default.removeItem(at: url)
        try Data(text.joined(separator: "\r\n").utf8).write(to: url)
    }

    /// Issue 32 (5): the bridge's memory belongs to the vdir's identity (its
    /// marker), not to how its path is spelled: a moved vdir, reached
    /// through a symlink, still knows its files (a pending phone edit is
    /// taken, not overwritten by the store's values); a wrong `--vdir` has a
    /// memory of its own and never touches the real one's.
    @Test func theVdirIsKnownByItsIdentityNotItsPath() throws {
        let vdir = try makeVdir()
        let id = try nextup().run("add", "Call the plumber").out
        _ = try nextup(["NEXTUP_VDIR": vdir.path]).run("sync")
        #expect(FileManager.default.fileExists(atPath: vdir.appendingPathComponent(".nextup-vdir").path))

        // A wrong --vdir: files written there, the real vdir's memory untouched.
        let wrong = try makeVdir("wrong")
        #expect(try nextup(["NEXTUP_VDIR": wrong.path]).run("sync").stdout.contains("1 file written"))

        // Moved, and reached through a symlink, with a phone edit pending.
        let moved = scratch.path("moved")
        try FileManager.default.moveItem(at: vdir, to: moved)
        let link = scratch.path("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: moved)
        try phoneRename(id, in: moved, to: "Call the plumber today")
        let result = try nextup(["NEXTUP_VDIR": link.path]).run("sync")
        #expect(result.stdout.contains("0 created, 1 updated"), "\(result)")
        #expect(try nextup().run("show", id, "--json").stdout.contains("\"title\" : \"Call the plumber today\""))
    }

    /// Issue 32 (6): more than a few files and more than a small share of
    /// the known ones vanishing in one cycle delete nothing; `sync` and
    /// `doctor` say why; `--accept-deletions` accepts it.
    @Test func manyVanishedFilesDeleteNothingUntilAccepted() throws {
        let vdir = try makeVdir()
        for n in 0..<10 { _ = try nextup().run("add", "Task \(n)") }
        _ = try nextup(["NEXTUP_VDIR": vdir.path]).run("sync")
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }.sorted()
        for name in files.dropFirst(2) { try FileManager.default.removeItem(at: vdir.appendingPathComponent(name)) }
        let held = try nextup(["NEXTUP_VDIR": vdir.path]).run("sync")
        #expect(held.status == 0 && held.stdout.contains("8 of the 10 task files"), "\(held)")
        #expect(held.stdout.contains("0 deleted") && held.stdout.contains("--accept-deletions"))
        #expect(try nextup().run("count").out == "10")
        let doctor = try nextup(["NEXTUP_VDIR": vdir.path]).run("doctor")
        #expect(doctor.status == 1 && doctor.stdout.contains("8 of the 10 task files"), "\(doctor)")
        let accepted = try nextup(["NEXTUP_VDIR": vdir.path]).run("sync", "--accept-deletions")
        #expect(accepted.stdout.contains("8 deleted"), "\(accepted)")
        #expect(try nextup().run("count").out == "2")
        // One file gone of many is an ordinary delete.
        _ = try nextup().run("add", "Task 10")
        _ = try nextup(["NEXTUP_VDIR": vdir.path]).run("sync")
        try FileManager.default.removeItem(at: vdir.appendingPathComponent(files[0]))
        #expect(try nextup(["NEXTUP_VDIR": vdir.path]).run("sync").stdout.contains("1 deleted"))
    }

    /// Issue 32 (12): `doctor` names every file a sync skips, with its reason.
    @Test func doctorNamesEveryFileTheBridgeSkips() throws {
        let vdir = try makeVdir()
        _ = try nextup().run("add", "Fine")
        _ = try nextup(["NEXTUP_VDIR": vdir.path]).run("sync")
        try Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:e\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8).write(to: vdir.appendingPathComponent("meeting.ics"))
        try Data("\u{FEFF}BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:bom\r\nSUMMARY:With a BOM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: vdir.appendingPathComponent("bom.ics"))
        let doctor = try nextup(["NEXTUP_VDIR": vdir.path]).run("doctor")
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("problem: the bridge skips meeting.ics: holds a VEVENT"), "\(doctor)")
        #expect(!doctor.stdout.contains("bom.ics"))
        #expect(try nextup(["NEXTUP_VDIR": vdir.path]).run("sync").stdout.contains("1 created"))
    }

    /// `vdir-merge` with a side that is not iCalendar: one line, exit 1, files untouched.
    @Test func vdirMergeRefusesWhatItCannotReadInOneLine() throws {
        let vdir = try makeVdir()
        let a = scratch.path("a.ics"), b = scratch.path("b.ics")
        try Data("not a calendar".utf8).write(to: a)
        try Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8).write(to: b)
        let result = try nextup(["NEXTUP_VDIR": vdir.path]).run("vdir-merge", a.path, b.path)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("nextup: cannot merge ") && result.stderr.split(separator: "\n").count == 1, "\(result)")
        #expect(try String(contentsOf: a, encoding: .utf8) == "not a calendar")
    }

    /// Issue 32 (3): a tag may hold spaces, on the command line as from a phone.
    @Test func tagsMayHoldSpaces() throws {
        let id = try nextup().run("add", "Set up the desk", "--tag", "Home Office").out
        #expect(try nextup().run("show", id, "--json").stdout.contains("\"Home Office\""))
        #expect(try nextup().run("list", "--tag", "home office").stdout.contains("Set up the desk"))
        let comma = try nextup().run("add", "Bad", "--tag", "a,b")
        #expect(comma.status != 0 && comma.stderr.contains("commas"))
    }
}
