import Foundation
import Testing

/// Coming from Taskwarrior and going back (issue 11), against Debian's real
/// `task` (2.6), installed by the Makefile: a Taskwarrior database made with
/// `task` itself, exported, imported into nextup, checked field by field
/// against the mapping, then written back into a fresh Taskwarrior whose
/// `task export` must equal the first one (computed `id` and `urgency` aside).
@Suite(.serialized) struct TaskwarriorMigrationTests {
    let scratch = Scratch()
    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path, "TZ": "UTC"]) }

    /// Runs `task` with its own taskrc and data folder.
    @discardableResult
    func task(_ data: String, _ args: [String]) throws -> NextupProcess.Result {
        let rc = scratch.path("taskrc")
        if !FileManager.default.fileExists(atPath: rc.path) {
            try Data("""
                confirmation=off
                verbose=nothing
                recurrence.confirmation=no
                uda.estimate.type=duration
                uda.estimate.label=Estimate
                uda.energy.type=string
                uda.energy.label=Energy
                uda.energy.values=low,high,

                """.utf8).write(to: rc)
        }
        var env = ProcessInfo.processInfo.environment
        env["TASKRC"] = rc.path
        env["TASKDATA"] = scratch.path(data).path
        env["TZ"] = "UTC"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/task")
        p.arguments = ["rc.data.location=" + scratch.path(data).path] + args
        p.environment = env
        return try NextupProcess.capture(p)
    }

    /// `task export` as objects by uuid, without the computed `id` and `urgency`.
    func exported(_ data: String) throws -> [String: [String: Any]] {
        let text = try task(data, ["export"]).stdout
        let list = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        var out: [String: [String: Any]] = [:]
        for var o in list {
            o["id"] = nil
            o["urgency"] = nil
            out[o["uuid"] as! String] = o
        }
        return out
    }

    func makeTaskwarriorDatabase() throws {
        let d = "tw"
        try task(d, ["add", "Write the Report", "+Work", "+ErrAnd", "project:Home.Garden.Beds", "priority:H", "due:2026-12-24", "estimate:PT1H30M", "energy:high"])
        try task(d, ["1", "annotate", "first note"])
        try task(d, ["1", "annotate", "second note, with ünïcödé"])
        try task(d, ["add", "Réviser le 日本語 📚", "priority:M", "wait:2027-01-15", "+next"])
        try task(d, ["add", "Low and done", "priority:L", "project:Admin"])
        try task(d, ["3", "done"])
        try task(d, ["add", "Deleted one", "+Old"])
        try task(d, ["4", "delete"])
        try task(d, ["add", "Weekly review", "due:2026-12-01", "recur:weekly", "until:2027-03-01"])
        try task(d, ["add", "Started", "project:Work"])
        try task(d, ["list"])  // makes the recurring task's first instance
    }

    @Test func aTaskwarriorDatabaseComesOverWithEveryFieldAndGoesBackTheSame() throws {
        let check = try task("probe", ["_version"])
        #expect(check.status == 0, "Taskwarrior must be installed (make test installs it)")
        try makeTaskwarriorDatabase()
        let started = try #require(try exported("tw").values.first { $0["description"] as? String == "Started" }?["uuid"] as? String)
        try task("tw", ["uuid:\(started)", "start"])
        let before = try exported("tw")
        #expect(before.count >= 7, "\(before.count)")

        let file = scratch.path("tw-export.json")
        try Data(try task("tw", ["export"]).stdout.utf8).write(to: file)
        let imported = try nextup.run("import", "--from", "taskwarrior", file.path, "--duration-from", "estimate", "--urgency-from", "Work")
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.contains("imported 1 recurring series"), "\(imported)")

        // Field by field, against the mapping.
        let report = try object(uuid(before, "Write the Report"))
        #expect(report["title"] as? String == "Write the Report")
        #expect(report["importance"] as? Int == 3)
        #expect(report["category"] as? String == "Home.Garden.Beds")
        #expect(report["tags"] as? [String] == ["ErrAnd"])  // Work is the urgency
        #expect(report["due"] as? String == "2026-12-24")
        #expect(report["duration"] as? Int == 90)
        #expect(report["urgency"] as? String == "urgent")
        // The annotations' texts, no date glued in (their dates are kept beside).
        #expect(report["notes"] as? String == "first note\nsecond note, with ünïcödé")
        #expect(try kept(report)["energy"] as? String == "high")
        #expect(report["created"] as? String != nil && report["source"] as? String == "taskwarrior")

        let french = try object(uuid(before, "Réviser le 日本語 📚"))
        #expect(french["importance"] as? Int == 2)
        #expect(french["next_up"] as? Bool == true)
        #expect(try kept(french)["wait"] as? String == "20270115T000000Z")
        #expect(french["tags"] as? [String] == [])  // next is Next Up
        let done = try object(uuid(before, "Low and done"))
        #expect(done["done"] as? Bool == true && done["importance"] as? Int == 1 && done["category"] as? String == "Admin")
        #expect(done["completed_at"] as? String != nil)
        #expect(try object(uuid(before, "Deleted one"))["deleted"] as? Bool == true)
        #expect(try object(started)["next_up"] as? Bool == true)
        let weekly = before.values.filter { $0["description"] as? String == "Weekly review" }
        #expect(weekly.count == 2)  // the template and its first instance
        #expect(weekly.contains { $0["status"] as? String == "recurring" })

        // Importing the same file again changes nothing.
        let again = try nextup.run("import", "--from", "taskwarrior", file.path, "--duration-from", "estimate", "--urgency-from", "Work")
        // The template is the series, no task of its own.
        #expect(again.stdout.contains("0 added, 0 updated, 0 kept (newer here), \(before.count - 1) unchanged"), "\(again)")

        // And back: a fresh Taskwarrior with the same taskrc gets the same tasks.
        let back = scratch.path("back.json")
        #expect(try nextup.run("export", "--to", "taskwarrior", back.path, "--duration-from", "estimate", "--urgency-from", "Work").status == 0)
        let imports = try task("fresh", ["import", back.path])
        #expect(imports.status == 0, "\(imports)")
        let after = try exported("fresh")
        #expect(Set(after.keys) == Set(before.keys))
        for (id, original) in before {
            let other = after[id] ?? [:]
            for key in Set(original.keys).union(other.keys) {
                // `task import` itself turns numbers into floats (imask 0 →
                // 0.000000, as a Taskwarrior-to-Taskwarrior import does too):
                // numbers compare by value.
                if let a = original[key] as? NSNumber, let b = other[key] as? NSNumber {
                    #expect(a.doubleValue == b.doubleValue, "\(original["description"] ?? id) \(key)")
                    continue
                }
                #expect(canonicalText(original[key] ?? "absent") == canonicalText(other[key] ?? "absent"),
                        "\(original["description"] ?? id) \(key): \(String(describing: original[key])) → \(String(describing: other[key]))")
            }
        }
    }

    @Test func anOlderTaskwarriorExportDoesNotUndoEditsMadeInNextup() throws {
        try task("tw", ["add", "Edit me in nextup", "priority:L"])
        let file = scratch.path("old.json")
        try Data(try task("tw", ["export"]).stdout.utf8).write(to: file)
        #expect(try nextup.run("import", "--from", "taskwarrior", file.path).status == 0)
        let id = try #require(try exported("tw").keys.first)
        #expect(try nextup.run("edit", id, "--title", "Edited in nextup", "--importance", "3").status == 0)
        let result = try nextup.run("import", "--from", "taskwarrior", file.path)
        #expect(result.stdout.contains("1 kept (newer here)"), "\(result)")
        let now = try object(id)
        #expect(now["title"] as? String == "Edited in nextup")
        #expect(now["importance"] as? Int == 3)
    }

    @Test(arguments: [
        ("[{\"uuid\":\"1daad62b-21af-4241-a773-b7acb17cd1b0\",\"description\":\"x\",\"status\":\"pending\"}", "the file is not valid JSON (is it cut short?)"),
        ("{\"tasks\": 1}", "line 1 has no uuid"),
        ("[{\"description\":\"x\",\"status\":\"pending\"}]", "item 1 has no uuid"),
        ("[{\"uuid\":\"1daad62b-21af-4241-a773-b7acb17cd1b0\",\"description\":\"x\",\"status\":\"pending\",\"due\":\"tomorrow\"}]", "'due' is not a Taskwarrior date"),
        ("[{\"uuid\":\"1daad62b-21af-4241-a773-b7acb17cd1b0\",\"description\":\"x\",\"status\":\"snoozed\"}]", "unknown status 'snoozed'"),
        ("42", "neither a JSON array of tasks nor one task object per line"),
    ])
    func badInputIsOneLineAndWritesNothing(input: String, says: String) throws {
        let file = scratch.path("bad.json")
        try Data(input.utf8).write(to: file)
        let result = try nextup.run("import", "--from", "taskwarrior", file.path)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains(says), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try nextup.run("count").out == "0" || nextup.run("count").stderr.contains("no nextup store at"))
    }

    func uuid(_ tasks: [String: [String: Any]], _ description: String) throws -> String {
        try #require(tasks.values.first { $0["description"] as? String == description && $0["status"] as? String != "recurring" }?["uuid"] as? String)
    }

    /// The Taskwarrior attributes a task keeps for the way back.
    func kept(_ task: [String: Any]) throws -> [String: Any] {
        let text = try #require((task["extra"] as? [String: Any])?["taskwarrior"] as? String)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func object(_ id: String) throws -> [String: Any] {
        let shown = try nextup.run("show", id, "--json")
        return try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any], "\(shown)")
    }
}
