import Foundation
import Testing

/// Importing merges like a sync (issue 9, reproduction 1): an older file never
/// reverts newer edits unless asked to by name, and then says what it replaced.
@Suite struct ImportMergeTests {
    let scratch = Scratch()
    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    func show(_ id: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try nextup.run("show", id, "--json").stdout.utf8)) as! [String: Any]
    }

    @Test func importingAnOlderExportKeepsTheNewerEdits() throws {
        let id = try nextup.run("add", "original", "--importance", "2", "--duration", "30m").out
        let old = scratch.path("old.json")
        #expect(try nextup.run("export", old.path).status == 0)
        #expect(try nextup.run("edit", id, "--title", "newer", "--importance", "1").status == 0)

        let result = try nextup.run("import", old.path)
        #expect(result.out == "imported 1 tasks: 0 added, 0 updated, 1 kept (newer here), 0 unchanged", "\(result)")
        let task = try show(id)
        #expect(task["title"] as? String == "newer")
        #expect(task["importance"] as? Int == 1)
        #expect(task["duration"] as? Int == 30)
    }

    @Test func aNewerFieldInTheFileWinsAndAnOlderOneIsKept() throws {
        let id = try nextup.run("add", "shared", "--importance", "2").out
        let file = scratch.path("file.json")
        #expect(try nextup.run("edit", id, "--duration", "1h").status == 0)
        #expect(try nextup.run("export", file.path).status == 0)
        // Newer here: the title. In the file, edited by hand later: the notes,
        // which carry no version of their own there, only the record's `modified`.
        #expect(try nextup.run("edit", id, "--title", "renamed here").status == 0)
        var objects = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [[String: Any]]
        objects[0]["notes"] = "added in the file"
        objects[0]["title"] = "stale title"
        var versions = objects[0]["versions"] as! [String: Any]
        versions["notes"] = nil
        versions["title"] = nil
        objects[0]["versions"] = versions
        objects[0]["modified"] = "2026-12-31T00:00:00.000Z"
        try JSONSerialization.data(withJSONObject: objects).write(to: file)

        let result = try nextup.run("import", file.path)
        #expect(result.status == 0, "\(result)")
        let task = try show(id)
        #expect(task["notes"] as? String == "added in the file")
        // The file's title is stamped later by `modified`: newer, so it wins —
        // the rule is the version, whatever the content.
        #expect(task["title"] as? String == "stale title")
        #expect(task["duration"] as? Int == 60)
    }

    @Test func overwriteRollsBackByNameAndListsWhatItReplaced() throws {
        let id = try nextup.run("add", "original").out
        let old = scratch.path("old.json")
        #expect(try nextup.run("export", old.path).status == 0)
        #expect(try nextup.run("edit", id, "--title", "newer", "--urgency", "urgent").status == 0)
        let result = try nextup.run("import", "--overwrite", old.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("overwrote \(id.prefix(8)) title: was 'newer'"))
        #expect(result.stdout.contains("overwrote \(id.prefix(8)) urgency: was 'urgent'"))
        #expect(result.stdout.hasSuffix("imported 1 tasks: 0 added, 1 updated, 0 kept (newer here), 0 unchanged\n"))
        let task = try show(id)
        #expect(task["title"] as? String == "original")
        #expect(task["urgency"] is NSNull)
    }

    @Test func aRecordWithoutCreatedGetsTheImportTimeNot1970() throws {
        let file = scratch.path("hand.json")
        try Data(#"[{"title": "typed by hand"}]"#.utf8).write(to: file)
        let before = Date()
        #expect(try nextup.run("import", file.path).status == 0)
        let listed = try JSONSerialization.jsonObject(with: Data(try nextup.run("list", "--json").stdout.utf8)) as! [[String: Any]]
        let created = try #require(listed.first?["created"] as? String)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(formatter.date(from: created))
        #expect(date.timeIntervalSince(before) > -5)
    }

    @Test func aVersionBeyondAnySaneFutureIsRefusedAndNothingIsWritten() throws {
        let id = try nextup.run("add", "t").out
        let file = scratch.path("f.json")
        #expect(try nextup.run("export", file.path).status == 0)
        var objects = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [[String: Any]]
        objects[0]["title"] = "poisoned"
        var versions = objects[0]["versions"] as! [String: Any]
        versions["title"] = "7fffffffffffffff@" + ((versions["created"] as! String).split(separator: "@").last.map(String.init) ?? "")
        objects[0]["versions"] = versions
        try JSONSerialization.data(withJSONObject: objects).write(to: file)
        let result = try nextup.run("import", file.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("beyond any sane future"), "\(result)")
        #expect(try show(id)["title"] as? String == "t")
        #expect(try nextup.run("add", "still works").status == 0)
    }
}
