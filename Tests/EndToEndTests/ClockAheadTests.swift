import Foundation
import Testing

/// Issue 31, item 2: a file written by a clock 45 days ahead. Its import is
/// named, `doctor` names the machine, and it moves no other task: of two
/// edits of another task made on two machines over a second apart, the
/// later one wins.
@Suite struct ClockAheadTests {
    let scratch = Scratch()

    func cli(_ store: String) -> NextupProcess {
        NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path(store).path, "NEXTUP_PEER": scratch.path("peer").path])
    }

    /// An export whose every version is moved `days` ahead of now.
    func futureFile(days: Int64) throws -> URL {
        let maker = NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("maker").path])
        #expect(try maker.run("add", "Written by a clock ahead").status == 0)
        var objects = try #require(try JSONSerialization.jsonObject(with: Data(maker.run("export").stdout.utf8)) as? [[String: Any]])
        let ahead = (Int64(Date().timeIntervalSince1970 * 1000) + days * 86_400_000 + 3_600_000) << 16
        for i in objects.indices {
            var versions = try #require(objects[i]["versions"] as? [String: String])
            for (field, version) in versions {
                versions[field] = String(format: "%016llx", ahead) + version.drop { $0 != "@" }
            }
            objects[i]["versions"] = versions
        }
        let url = scratch.path("future.json")
        try JSONSerialization.data(withJSONObject: objects).write(to: url)
        return url
    }

    func title(_ cli: NextupProcess, _ id: String) throws -> String? {
        let r = try cli.run("show", id, "--json")
        return ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any])?["title"] as? String
    }

    @Test func aFileFromAClockAheadIsNamedAndMovesNoOtherTask() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let a = cli("a"), b = cli("b")
        let shared = try a.run("add", "Shared").out
        let busy = try a.run("add", "Busy").out
        #expect(try a.run("sync").status == 0)
        #expect(try b.run("sync").status == 0)

        let imported = try a.run("import", try futureFile(days: 45).path)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stderr.contains("holds changes 45 days ahead of this machine's clock"), "\(imported)")
        let doctor = try a.run("doctor")
        #expect(doctor.status == 1 && doctor.stdout.contains("wrote changes 45 days ahead of this machine's clock"), "\(doctor)")
        #expect(try a.run("sync").status == 0)
        #expect(try b.run("sync").status == 0)

        // A ticks its clock a few times, then edits; B edits over a second later.
        for n in 0..<3 { #expect(try a.run("edit", busy, "--notes", "tick \(n)").status == 0) }
        #expect(try a.run("edit", shared, "--title", "earlier, on A").status == 0)
        Thread.sleep(forTimeInterval: 1.3)
        #expect(try b.run("edit", shared, "--title", "later, on B").status == 0)
        for _ in 0..<2 {
            #expect(try a.run("sync").status == 0)
            #expect(try b.run("sync").status == 0)
        }
        #expect(try title(a, shared) == "later, on B")
        #expect(try title(b, shared) == "later, on B")
    }
}
