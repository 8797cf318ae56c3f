import Foundation
import Testing

/// Living with Taskwarrior and nextup side by side (issue 34), against the
/// real `task` 2.6: trips back and forth with edits on either side in
/// between never make a field drift.
@Suite(.serialized) struct TaskwarriorRoundTripTests {
    let scratch = Scratch()

    /// Issue 34, 1: each annotation is kept as itself (text and `entry`) both
    /// ways; nextup's notes are the annotations' texts, a line added in
    /// nextup becomes a new annotation, and no date is glued into any text.
    @Test func annotationsStayThemselvesThroughEveryTrip() throws {
        let side = TaskwarriorSide(scratch: scratch)
        try side.task("add", "Call Bob")
        try side.task("1", "annotate", "Talked to Bob")
        let bob = try side.uuid("Call Bob")
        let original = try #require(try side.taskwarriorTasks()[bob]?["annotations"] as? [[String: String]])
        try side.toNextup()
        #expect(try side.nextupTask(bob)["notes"] as? String == "Talked to Bob")

        #expect(try side.nextup.run("edit", bob, "--notes", "Talked to Bob\nCall back on Friday").status == 0)
        let typed = try #require(try side.nextup.run("add", "Plan", "--notes", "first line\n\nsecond line").out.split(separator: " ").last.map(String.init))
        try side.toTaskwarrior()
        for trip in 0..<3 {
            let tasks = try side.taskwarriorTasks()
            let annotations = try #require(tasks[bob]?["annotations"] as? [[String: String]], "trip \(trip)")
            #expect(annotations.count == 2)
            #expect(annotations.first == original.first, "trip \(trip): \(annotations)")
            #expect(annotations.last?["description"] == "Call back on Friday")
            #expect(annotations.map { $0["entry"]! } == annotations.map { $0["entry"]! }.sorted())
            let typedTask = try #require(tasks.values.first { $0["description"] as? String == "Plan" })
            let typedNotes = (typedTask["annotations"] as? [[String: String]])?.map { $0["description"]! }
            #expect(typedNotes?.joined(separator: "\n") == "first line\n\nsecond line", "\(String(describing: typedNotes))")
            // An unrelated edit in Taskwarrior makes every field newer there.
            try side.task("uuid:\(bob)", "modify", "priority:\(["H", "M", "L"][trip])")
            try side.task("description:Plan", "modify", "+trip\(trip)")
            try side.toNextup()
            #expect(try side.nextupTask(bob)["notes"] as? String == "Talked to Bob\nCall back on Friday", "trip \(trip)")
            let plan = try side.nextupTasks().values.first { $0["title"] as? String == "Plan" }
            #expect(plan?["notes"] as? String == "first line\n\nsecond line", "trip \(trip)")
            try side.toTaskwarrior()
        }
        _ = typed

        // A note added in Taskwarrior arrives as a line of its own, and an
        // annotation removed there leaves the notes.
        try side.task("uuid:\(bob)", "annotate", "Bob called back")
        try side.task("uuid:\(bob)", "denotate", "Talked to Bob")
        try side.toNextup()
        #expect(try side.nextupTask(bob)["notes"] as? String == "Call back on Friday\nBob called back")
        try side.toTaskwarrior()
        let last = try #require(try side.taskwarriorTasks()[bob]?["annotations"] as? [[String: String]])
        #expect(last.map { $0["description"]! } == ["Call back on Friday", "Bob called back"])
    }

    /// Issue 34, 2: urgency (through `--urgency-from`), Next Up (the `next`
    /// tag, added and removed), duration (`--duration-from`), the category and
    /// the tags go back to Taskwarrior, and come in again as nextup left them.
    @Test func everythingNextupMapsIsWrittenBack() throws {
        var side = TaskwarriorSide(scratch: scratch)
        side.mapping = ["--urgency-from", "urgent", "--duration-from", "estimate"]
        try side.task("add", "Made urgent", "project:Home.Garden")
        try side.task("add", "Taken out of Next Up", "+next", "+Work")
        try side.task("add", "Put into Next Up")
        try side.task("add", "Not urgent", "+urgent", "estimate:PT30M")
        try side.task("add", "Started", "project:Work")
        let ids = try ["Made urgent", "Taken out of Next Up", "Put into Next Up", "Not urgent", "Started"].map(side.uuid)
        try side.task("uuid:\(ids[4])", "start")
        try side.toNextup()
        let before = try side.nextupTasks()
        #expect(before[ids[0]]?["urgency"] is NSNull && before[ids[3]]?["urgency"] as? String == "urgent")
        #expect(before[ids[1]]?["next_up"] as? Bool == true && before[ids[1]]?["tags"] as? [String] == ["Work"])
        #expect(before[ids[3]]?["duration"] as? Int == 30 && before[ids[4]]?["next_up"] as? Bool == true)

        let edits: [[String]] = [
            ["edit", ids[0], "--urgency", "urgent", "--duration", "1h30m", "--category", "Errands"],
            ["edit", ids[1], "--no-next", "--urgency", "not-urgent"],
            ["edit", ids[2], "--next", "--duration", "45m", "--tag", "Deep"],
            ["edit", ids[3], "--urgency", "not-urgent", "--duration", "none"],
            ["edit", ids[4], "--no-next"],
        ]
        for edit in edits { #expect(try side.nextup.run(edit).status == 0, "\(edit)") }
        let edited = try side.nextupTasks()
        try side.toTaskwarrior()
        let tw = try side.taskwarriorTasks()
        #expect(tw[ids[0]]?["tags"] as? [String] == ["urgent"])
        #expect(tw[ids[0]]?["estimate"] as? String == "PT1H30M")
        #expect(tw[ids[0]]?["project"] as? String == "Errands")
        #expect(tw[ids[1]]?["tags"] as? [String] == ["Work"])
        #expect(tw[ids[2]]?["tags"] as? [String] == ["Deep", "next"])
        #expect(tw[ids[3]]?["tags"] == nil && tw[ids[3]]?["estimate"] == nil)
        #expect(tw[ids[4]]?["start"] == nil)

        // An unrelated edit of each in Taskwarrior, and back: nothing moved.
        for id in ids { try side.task("uuid:\(id)", "annotate", "seen in Taskwarrior") }
        try side.toNextup()
        let after = try side.nextupTasks()
        for id in ids {
            for key in ["urgency", "next_up", "duration", "category", "tags", "importance", "due", "title"] {
                #expect("\(after[id]?[key] ?? "absent")" == "\(edited[id]?[key] ?? "absent")", "\(edited[id]?["title"] ?? id) \(key)")
            }
        }
    }
}
