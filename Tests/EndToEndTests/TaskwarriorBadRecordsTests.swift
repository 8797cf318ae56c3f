import Foundation
import Testing

/// Issue 34, 3: a Taskwarrior file with bad records names every one of them
/// at once (place, uuid, why) and imports nothing; `--skip-invalid` imports
/// the rest and lists what it skipped. A tag with spaces is not bad: tags
/// refuse only commas and control characters.
@Suite struct TaskwarriorBadRecordsTests {
    let scratch = Scratch()
    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    static let file = """
        [
        {"uuid":"0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b01","description":"Fine","status":"pending","entry":"20261101T080000Z","tags":["x"]},
        {"uuid":"0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b02","description":"Bad date","status":"pending","due":"soon"},
        {"uuid":"0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b03","description":"Also fine","status":"completed","end":"20261102T080000Z"},
        {"uuid":"0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b04","description":"Comma tag","status":"pending","tags":["a,b"]},
        {"description":"No uuid","status":"pending"},
        {"uuid":"0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b03","description":"Twice","status":"pending"}
        ]
        """

    @Test func everyBadRecordIsNamedAndNothingIsImported() throws {
        let path = scratch.path("tw.json")
        try Data(Self.file.utf8).write(to: path)
        let r = try nextup.run("import", "--from", "taskwarrior", path.path)
        #expect(r.status == 1, "\(r)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(r)")
        #expect(lines[0].hasPrefix("nextup: item 2 (0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b02): 'due' is not a Taskwarrior date"), "\(lines)")
        #expect(lines[1].hasPrefix("nextup: item 4 (0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b04): tag 'a,b'"), "\(lines)")
        #expect(lines[2] == "nextup: item 5 has no uuid")
        #expect(lines[3] == "nextup: item 6 (0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b03): its uuid is item 3's too")
        #expect(lines[4] == "nextup: 4 tasks cannot be imported; nothing imported; --skip-invalid imports the other 2")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("store").appendingPathComponent("nextup.sqlite").path))

        let skipping = try nextup.run("import", "--from", "taskwarrior", path.path, "--skip-invalid")
        #expect(skipping.status == 0, "\(skipping)")
        #expect(skipping.stdout.contains("imported 2 tasks: 2 added"), "\(skipping)")
        let skipped = skipping.stdout.split(separator: "\n").filter { $0.hasPrefix("skipped item ") }
        #expect(skipped.count == 4, "\(skipping)")
        let fine = try nextup.run("show", "0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b01", "--json")
        let task = try #require(try JSONSerialization.jsonObject(with: Data(fine.stdout.utf8)) as? [String: Any], "\(fine)")
        #expect(task["tags"] as? [String] == ["x"])
        #expect(try nextup.run("list", "--done").stdout.contains("Also fine"))
    }

    /// Taskwarrior imports and exports tags with spaces; so does nextup, both
    /// ways (issue 32 makes tags accept them: only commas and control
    /// characters are refused).
    @Test func aTagWithSpacesComesAndGoesAsItIs() throws {
        let side = TaskwarriorSide(scratch: scratch)
        let path = scratch.path("spaces.json")
        try Data("""
            [{"uuid":"0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b01","description":"Spaced","status":"pending","entry":"20261101T080000Z","tags":["two words","x"]}]
            """.utf8).write(to: path)
        try side.task("import", path.path)
        let imported = try side.toNextup()
        #expect(imported.stdout.contains("1 added"), "\(imported)")
        #expect(try side.nextupTask("0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b01")["tags"] as? [String] == ["two words", "x"])
        try side.toTaskwarrior()
        #expect(try side.taskwarriorTasks()["0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b01"]?["tags"] as? [String] == ["two words", "x"])
    }

    @Test func skipInvalidGoesWithTaskwarriorOnly() throws {
        let path = scratch.path("x.json")
        try Data("[]".utf8).write(to: path)
        let r = try nextup.run("import", path.path, "--skip-invalid")
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("--skip-invalid goes with --from taskwarrior"), "\(r)")
    }
}
