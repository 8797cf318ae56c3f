import Foundation
import Testing

/// Issue 35: Taskwarrior's recurring tasks as nextup series, against the real
/// `task` 2.6. A template and its instances are one series: the pending
/// instance of lowest index is the live occurrence, the completed ones the
/// history; the instances Taskwarrior makes ahead are never a second live
/// one, and going back and forth through `task` runs that make more never
/// duplicates an occurrence in either tool.
@Suite(.serialized) struct TaskwarriorSeriesTests {
    let scratch = Scratch()

    /// The nextup tasks titled `title`, by occurrence number.
    func occurrences(_ side: TaskwarriorSide, _ title: String) throws -> [Int: [String: Any]] {
        var out: [Int: [String: Any]] = [:]
        for t in try side.nextupTasks().values where t["title"] as? String == title {
            let text = try #require(t["occurrence"] as? String, "\(t)")
            let number = try #require(Int(text.split(separator: "#").last ?? ""))
            #expect(out[number] == nil, "occurrence \(number) twice")
            out[number] = t
        }
        return out
    }

    /// Taskwarrior's instances of `title` (templates aside), by index; an
    /// index held by two instances is a duplicate.
    func instances(_ side: TaskwarriorSide, _ title: String) throws -> [Int: [String: Any]] {
        var out: [Int: [String: Any]] = [:]
        for t in try side.taskwarriorTasks().values where t["description"] as? String == title && t["parent"] != nil {
            let index = try #require((t["imask"] as? NSNumber)?.intValue)
            let uuid = t["uuid"] as? String ?? "?"
            #expect(out[index] == nil, "Taskwarrior holds two instances of index \(index), one \(uuid)")
            out[index] = t
        }
        return out
    }

    func openOnes(_ occurrences: [Int: [String: Any]]) -> [Int] {
        occurrences.filter { $0.value["done"] as? Bool == false && $0.value["deleted"] as? Bool == false }.keys.sorted()
    }

    @Test func aSeriesComesOverAsOneLiveOccurrenceAndNeverDuplicates() throws {
        let side = TaskwarriorSide(scratch: scratch)
        try side.task("add", "Water plants", "due:today-3d", "recur:daily")
        try side.task("list")  // makes the instances: three missed, today's, tomorrow's
        let made = try instances(side, "Water plants")
        #expect(made.count == 5, "\(made.keys.sorted())")
        try side.task("uuid:\(made[0]!["uuid"]!)", "done")
        let template = try #require(try side.taskwarriorTasks().values.first { $0["status"] as? String == "recurring" }?["uuid"] as? String)

        let imported = try side.toNextup()
        #expect(imported.stdout.contains("imported 1 recurring series"), "\(imported)")
        var series = try occurrences(side, "Water plants")
        #expect(series.keys.sorted() == [1, 2], "one done, one live; the ones made ahead wait their turn")
        #expect(series[1]?["done"] as? Bool == true && openOnes(series) == [2])
        #expect(series[2]?["recur"] as? String == "FREQ=DAILY")
        #expect(series[1]?["id"] as? String == template, "the series' id is the template's uuid")
        #expect(series[2]?["external_id"] as? String == made[1]!["uuid"] as? String)
        #expect(try side.nextup.run("list").stdout.components(separatedBy: "Water plants").count == 2)

        // Back and forth with `task` runs that make instances in between:
        // one live occurrence in nextup, one instance per index in Taskwarrior.
        for trip in 0..<2 {
            try side.toTaskwarrior()
            try side.task("next")
            let back = try instances(side, "Water plants")
            #expect(back.count == made.count, "trip \(trip): \(back.keys.sorted())")
            #expect(back[0]?["status"] as? String == "completed")
            try side.toNextup()
            series = try occurrences(side, "Water plants")
            #expect(series.keys.sorted() == [1, 2] && openOnes(series) == [2], "trip \(trip)")
        }
        let mask = try #require(try side.taskwarriorTasks()[template]?["mask"] as? String)
        #expect(mask.hasPrefix("+") && mask.count == made.count, "\(mask)")

        // Completing in Taskwarrior moves the live occurrence on, and the
        // done one is kept.
        try side.task("uuid:\(made[1]!["uuid"]!)", "done")
        try side.toNextup()
        series = try occurrences(side, "Water plants")
        #expect(series.keys.sorted() == [1, 2, 3] && openOnes(series) == [3])
        let due = Array(try #require(made[2]?["due"] as? String))
        #expect(series[3]?["due"] as? String == String(due[0..<4]) + "-" + String(due[4..<6]) + "-" + String(due[6..<8]))

        // Completing in nextup makes occurrence 4, which Taskwarrior made
        // ahead already: it goes back under that instance's uuid, not as a
        // second instance of its index.
        let third = try #require(series[3]?["id"] as? String)
        #expect(try side.nextup.run("done", third).status == 0)
        try side.toTaskwarrior()
        try side.task("next")
        let after = try instances(side, "Water plants")
        #expect(after[3]?["uuid"] as? String == made[3]!["uuid"] as? String)
        #expect(after[2]?["status"] as? String == "completed" && after[3]?["status"] as? String == "pending")
        try side.toNextup()
        series = try occurrences(side, "Water plants")
        #expect(series.keys.sorted() == [1, 2, 3, 4] && openOnes(series) == [4])
        #expect(series[4]?["external_id"] as? String == made[3]!["uuid"] as? String)
    }

    /// A series made in nextup goes to Taskwarrior as a template and its
    /// instance; `task` runs that make instances ahead, and completing on
    /// either side, never make a second live occurrence or a second
    /// instance of an index.
    @Test func aSeriesMadeInNextupSurvivesTaskRuns() throws {
        let side = TaskwarriorSide(scratch: scratch)
        let id = try side.nextup.run("add", "Stretch", "--due", "today", "--recur", "daily").out
        try side.toTaskwarrior()
        try side.task("next")
        let made = try instances(side, "Stretch")
        #expect(made[0] != nil && made.count >= 2, "Taskwarrior made the next one ahead: \(made.keys.sorted())")
        #expect(try side.taskwarriorTasks()[id]?["status"] as? String == "recurring", "the template is the series")
        try side.toNextup()
        var series = try occurrences(side, "Stretch")
        #expect(series.keys.sorted() == [1] && openOnes(series) == [1])
        #expect(try side.nextup.run("done", id).status == 0)
        try side.toTaskwarrior()
        try side.task("next")
        let after = try instances(side, "Stretch")
        #expect(after[0]?["status"] as? String == "completed")
        #expect(after[1]?["uuid"] as? String == made[1]?["uuid"] as? String, "occurrence 2 is the instance made ahead")
        try side.toNextup()
        series = try occurrences(side, "Stretch")
        #expect(openOnes(series) == [2] && series.keys.sorted() == [1, 2])
        #expect(series[2]?["recur"] as? String == "FREQ=DAILY")
    }

    /// `wait` (else `scheduled`) is the defer date, and the way back keeps
    /// Taskwarrior's own value while nextup's reads as it.
    @Test func waitAndScheduledAreTheDeferDate() throws {
        let side = TaskwarriorSide(scratch: scratch)
        try side.task("add", "Waits", "wait:2030-01-15", "due:2030-02-01")
        try side.task("add", "Scheduled", "scheduled:2030-03-01")
        try side.task("add", "Neither")
        let ids = try ["Waits", "Scheduled", "Neither"].map(side.uuid)
        let before = try side.taskwarriorTasks()
        try side.toNextup()
        let tasks = try side.nextupTasks()
        #expect(tasks[ids[0]]?["defer"] as? String == "2030-01-15")
        #expect(tasks[ids[1]]?["defer"] as? String == "2030-03-01")
        #expect(tasks[ids[2]]?["defer"] is NSNull || tasks[ids[2]]?["defer"] == nil)
        try side.toTaskwarrior()
        let after = try side.taskwarriorTasks()
        for id in ids {
            for key in ["wait", "scheduled", "status"] {
                #expect("\(after[id]?[key] ?? "absent")" == "\(before[id]?[key] ?? "absent")", "\(before[id]?["description"] ?? id) \(key)")
            }
        }
    }

    /// An instance edited alone in Taskwarrior (`recurrence.confirmation=no`)
    /// keeps the edit to itself through a trip; an edit made in nextup is the
    /// series' and reaches the template, field by field (CI seed 14848189089838807095).
    @Test func anInstanceEditedAloneInTaskwarriorLeavesItsTemplate() throws {
        let side = TaskwarriorSide(scratch: scratch)
        try side.task("add", "Weekly review", "due:2026-12-01", "recur:weekly")
        try side.task("list")
        try side.toNextup()
        try side.toTaskwarrior()
        func template() throws -> [String: Any] {
            try #require(try side.taskwarriorTasks().values.first { $0["status"] as? String == "recurring" })
        }
        let instance = try #require(try instances(side, "Weekly review")[0]?["uuid"] as? String)
        // Taskwarrior's `modified` counts whole seconds: its edit is newer
        // than what nextup wrote only from the next second on.
        let second = Date().timeIntervalSince1970.rounded(.down)
        while Date().timeIntervalSince1970 < second + 1 { usleep(5_000) }
        try side.task("uuid:\(instance)", "modify", "+Work", "priority:H")
        try side.toNextup()
        try side.toTaskwarrior()
        var shared = try template()
        #expect(shared["tags"] == nil && shared["priority"] == nil, "\(shared)")
        #expect(try instances(side, "Weekly review")[0]?["tags"] as? [String] == ["Work"])

        let id = try #require(try occurrences(side, "Weekly review").values.first?["id"] as? String)
        #expect(try side.nextup.run("edit", id, "--tag", "home").status == 0)
        try side.toTaskwarrior()
        shared = try template()
        #expect(Set(shared["tags"] as? [String] ?? []) == ["Work", "home"], "\(shared)")
        #expect(shared["priority"] == nil, "nextup edited the tags only: the instance's own priority stays its own")
    }
}
