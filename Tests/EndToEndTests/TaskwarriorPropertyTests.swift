import Foundation
import Testing

/// Issue 34's property, against the real `task` 2.6: random Taskwarrior
/// databases (annotations, tags with spaces, priorities, projects with dots,
/// due times in several time zones, UDAs, waiting, scheduled, recurring,
/// completed and deleted tasks), then trips with random edits on either side.
///
/// After the edits on one side, that side's tasks go to the other and come
/// back; the side must then export exactly what it exported before the trip
/// (Taskwarrior: every attribute but `modified`; nextup: every field but the
/// time stamps) — so no edit was lost or bent on the way, and nothing nobody
/// touched changed. Before a trip back from Taskwarrior, every task there is
/// touched (a UDA nextup keeps but does not map), so that Taskwarrior's copy
/// is the newer one and nextup takes all of it. `NEXTUP_SCHEDULES` (as
/// `make test-more` sets) makes the run longer.
@Suite(.serialized) struct TaskwarriorPropertyTests {
    static var databases: Int { 1 + (Int(ProcessInfo.processInfo.environment["NEXTUP_SCHEDULES"] ?? "") ?? 0) / 1000 }
    static var trips: Int { 4 + (Int(ProcessInfo.processInfo.environment["NEXTUP_SCHEDULES"] ?? "") ?? 0) / 200 }

    @Test func roundTripsWithRandomEditsOnEitherSideNeverDrift() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["NEXTUP_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        var rng = SplitMix(seed)
        for database in 0..<Self.databases {
            let scratch = Scratch()
            var side = TaskwarriorSide(scratch: scratch)
            side.mapping = ["--urgency-from", "urgent", "--duration-from", "estimate"]
            side.timeZone = ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"].randomElement(using: &rng)!
            let context = "seed \(seed) (NEXTUP_SEED), database \(database), TZ \(side.timeZone)"
            try makeDatabase(side, &rng)
            let original = try side.taskwarriorTasks()

            // In and out again: Taskwarrior gets back what it wrote.
            try side.toNextup()
            try side.toTaskwarrior()
            try compare(original, try side.taskwarriorTasks(), "\(context), first trip", ignoring: ["modified"])

            for trip in 0..<Self.trips {
                if rng.next() % 2 == 0 {
                    waitForTheNextSecond()
                    let edits = try editTaskwarrior(side, &rng)
                    let before = try side.taskwarriorTasks()
                    try side.toNextup()
                    try side.toTaskwarrior()
                    try compare(before, try side.taskwarriorTasks(), "\(context), trip \(trip) after Taskwarrior edits \(edits)", ignoring: ["modified"])
                } else {
                    let edits = try editNextup(side, &rng)
                    let before = try side.nextupTasks()
                    try side.toTaskwarrior()
                    waitForTheNextSecond()
                    try touchAll(side, trip)
                    try side.toNextup()
                    try compare(before, try side.nextupTasks(), "\(context), trip \(trip) after nextup edits \(edits)",
                                ignoring: ["modified", "versions", "extra", "created", "source", "external_id"])
                }
            }
        }
    }

    // MARK: The databases

    static let words = ["Report", "Réviser", "日本語", "garden", "call Bob", "📚", "two  spaces", "Ünïcode", "plan", "x"]

    func phrase(_ rng: inout SplitMix) -> String {
        (0..<Int(1 + rng.next() % 3)).map { _ in Self.words.randomElement(using: &rng)! }.joined(separator: " ")
    }

    func date(_ rng: inout SplitMix, days: ClosedRange<Int64> = -30...90, hour: Int64? = nil) -> String {
        let day = Int64(1_795_000_000) + Int64.random(in: days, using: &rng) * 86_400
        let seconds = day - day % 86_400 + (hour ?? Int64.random(in: 0...23, using: &rng)) * 3600
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return f.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    func makeDatabase(_ side: TaskwarriorSide, _ rng: inout SplitMix) throws {
        var tasks: [[String: Any]] = []
        for n in 0..<Int(5 + rng.next() % 5) {
            var o: [String: Any] = ["uuid": uuid(&rng), "description": phrase(&rng) + " \(n)",
                                    "entry": date(&rng, days: -400 ... -200), "status": "pending"]
            o["modified"] = o["entry"]
            switch rng.next() % 6 {
            case 0: o["status"] = "completed"; o["end"] = date(&rng, days: -100 ... -50)
            case 1: o["status"] = "deleted"; o["end"] = date(&rng, days: -100 ... -50)
            case 2: o["status"] = "waiting"; o["wait"] = date(&rng, days: 200...300)
            default: break
            }
            if rng.next() % 2 == 0 { o["priority"] = ["H", "M", "L"].randomElement(using: &rng)! }
            if rng.next() % 2 == 0 { o["project"] = ["Home", "Home.Garden", "Work.Q4.Plan", "Über.Ärger"].randomElement(using: &rng)! }
            let tags = ["next", "urgent", "Work", "two words", "home"].filter { _ in rng.next() % 4 == 0 }
            if !tags.isEmpty { o["tags"] = tags }
            // Due at a local midnight of some zone, or at any hour.
            if rng.next() % 2 == 0 { o["due"] = date(&rng, hour: [0, 5, 18, 23, 11].randomElement(using: &rng)!) }
            if rng.next() % 4 == 0 { o["scheduled"] = date(&rng) }
            if rng.next() % 3 == 0 { o["estimate"] = ["PT30M", "PT1H30M", "PT2H"].randomElement(using: &rng)! }
            if rng.next() % 3 == 0 { o["energy"] = ["low", "high"].randomElement(using: &rng)! }
            if rng.next() % 5 == 0, o["status"] as? String == "pending" { o["start"] = date(&rng, days: -10 ... -1) }
            let count = Int(rng.next() % 4)
            if count > 0 {
                var annotations: [[String: String]] = []
                for i in 0..<Int64(count) {
                    let low: Int64 = -190 + 20 * i
                    annotations.append(["entry": date(&rng, days: low...(low + 9)), "description": phrase(&rng)])
                }
                o["annotations"] = annotations
            }
            tasks.append(o)
        }
        let file = side.scratch.path("random.json")
        try JSONSerialization.data(withJSONObject: tasks).write(to: file)
        try side.task("import", file.path)
        if rng.next() % 2 == 0 {
            try side.task("add", "Weekly review", "due:2026-12-01", "recur:weekly")
            try side.task("list")
        }
    }

    /// A uuid drawn from the seed, so that a failing run replays.
    func uuid(_ rng: inout SplitMix) -> String {
        let (a, b) = (rng.next(), rng.next())
        let hex = String(format: "%016llx%016llx", a, b)
        return UUID(uuidString: hex.enumerated().map { ([8, 12, 16, 20].contains($0.offset) ? "-" : "") + String($0.element) }.joined())!
            .uuidString.lowercased()
    }

    /// The order edits pick tasks in: by text and place in a series, not by
    /// the uuids Taskwarrior draws itself, so that a seed replays.
    func replayOrder(_ task: [String: Any], _ text: String) -> String {
        "\(task[text] ?? "")|\(task["imask"] ?? task["occurrence"] ?? "")|\(task["status"] ?? "")|\(task["done"] ?? "")"
    }

    // MARK: The edits

    /// A few random edits in Taskwarrior; what they were, for the message.
    func editTaskwarrior(_ side: TaskwarriorSide, _ rng: inout SplitMix) throws -> [String] {
        let tasks = try side.taskwarriorTasks().values.filter { $0["status"] as? String != "recurring" }.sorted { replayOrder($0, "description") < replayOrder($1, "description") }
        var done: [String] = []
        for _ in 0..<Int(1 + rng.next() % 3) {
            guard let task = tasks.randomElement(using: &rng) else { break }
            let uuid = "uuid:\(task["uuid"]!)"
            let pending = ["pending", "waiting"].contains(task["status"] as? String ?? "")
            var args: [String]
            switch rng.next() % 11 {
            case 0: args = ["modify", "description:" + phrase(&rng)]
            case 1: args = ["modify", "priority:" + ["H", "M", "L", ""].randomElement(using: &rng)!]
            case 2: args = ["modify", "project:" + ["Home.Garden", "Errands", ""].randomElement(using: &rng)!]
            case 3: args = ["modify", ["+next", "-next", "+urgent", "-urgent", "+Work", "-Work", "+new"].randomElement(using: &rng)!]
            case 4: args = ["modify", "due:" + ["2026-12-24", "2027-01-03T15:00", ""].randomElement(using: &rng)!]
            case 5: args = ["annotate", phrase(&rng)]
            case 6: args = pending ? [["start", "stop"].randomElement(using: &rng)!] : ["modify", "+old"]
            case 7: args = pending ? ["done"] : ["modify", "-old"]
            case 8: args = ["modify", "estimate:" + ["PT45M", "PT3H", ""].randomElement(using: &rng)!]
            case 9: args = ["modify", "energy:" + ["low", "high", ""].randomElement(using: &rng)!]
            default: args = pending ? ["delete"] : ["modify", "priority:H"]
            }
            // Refused edits (`stop` of a task not started, …) change nothing.
            if (try? side.task([uuid] + args)) != nil { done.append("\(task["description"] ?? "?"): \(args.joined(separator: " "))") }
        }
        return done
    }

    /// A few random edits in nextup; what they were, for the message.
    func editNextup(_ side: TaskwarriorSide, _ rng: inout SplitMix) throws -> [String] {
        let tasks = try side.nextupTasks().values.filter { $0["deleted"] as? Bool == false || rng.next() % 2 == 0 }.sorted { replayOrder($0, "title") < replayOrder($1, "title") }
        var done: [String] = []
        for _ in 0..<Int(1 + rng.next() % 3) {
            // The task as it is now: an earlier edit of this trip may have changed it (done, then
            // "delete" of what the list said was open would make a task Taskwarrior cannot hold).
            guard let picked = tasks.randomElement(using: &rng), let id = picked["id"] as? String,
                  let task = try side.nextupTasks()[id] else { break }
            let notes = task["notes"] as? String ?? ""
            var lines = notes.isEmpty ? [] : notes.components(separatedBy: "\n")
            var args: [String]
            switch rng.next() % 13 {
            case 0: args = ["edit", id, "--title", phrase(&rng)]
            case 1: args = ["edit", id, "--importance", ["1", "2", "3", "none"].randomElement(using: &rng)!]
            case 2: args = ["edit", id, "--category", ["Errands", "Home.Garden", "none"].randomElement(using: &rng)!]
            case 3: args = ["edit", id, ["--tag", "--untag"].randomElement(using: &rng)!, ["Work", "two words", "fresh"].randomElement(using: &rng)!]
            // A recurring task keeps a due date in Taskwarrior (README).
            case 4: args = ["edit", id, "--due", (recurring(task) ? ["2026-12-24", "2027-02-01"] : ["2026-12-24", "2027-02-01", "none"]).randomElement(using: &rng)!]
            case 5:
                switch rng.next() % 4 {
                case 0: lines.append(phrase(&rng))
                case 1: lines.insert(phrase(&rng), at: 0)
                case 2: if !lines.isEmpty { lines.remove(at: Int(rng.next() % UInt64(lines.count))) }
                default: lines.append(""); lines.append(phrase(&rng))
                }
                args = ["edit", id, "--notes", lines.isEmpty ? "none" : lines.joined(separator: "\n")]
            case 6: args = ["edit", id, ["--next", "--no-next"].randomElement(using: &rng)!]
            case 7: args = ["edit", id, "--urgency", ["urgent", "not-urgent", "none"].randomElement(using: &rng)!]
            case 8: args = ["edit", id, "--duration", ["45m", "2h", "none"].randomElement(using: &rng)!]
            case 9: args = [task["deleted"] as? Bool == true ? "restore" : task["done"] as? Bool == true ? "undone" : "done", id]
            // Taskwarrior has one status: a task done, then deleted, comes back deleted and not done.
            case 10: args = [task["deleted"] as? Bool == true ? "restore" : task["done"] as? Bool == true ? "undone" : "delete", id]
            case 11: args = ["add", phrase(&rng), "--urgency", "not-urgent", "--notes", "typed\nin nextup"]
            default: args = ["edit", id, "--title", phrase(&rng), "--urgency", "urgent", "--duration", "90"]
            }
            let r = try side.nextup.run(args)
            if r.status == 0 { done.append("\(task["title"] ?? "?"): \(args.dropFirst(args[0] == "edit" ? 2 : 0).joined(separator: " "))") }
        }
        return done
    }

    /// Whether a nextup task is one of a Taskwarrior recurrence (it keeps `recur`).
    func recurring(_ task: [String: Any]) -> Bool {
        ((task["extra"] as? [String: Any])?["taskwarrior"] as? String ?? "").contains("\"recur\"")
    }

    /// Every Taskwarrior task but the templates made newer there, by a UDA
    /// nextup keeps without mapping.
    func touchAll(_ side: TaskwarriorSide, _ trip: Int) throws {
        let ids = try side.taskwarriorTasks().values.filter { $0["status"] as? String != "recurring" }.compactMap { $0["uuid"] as? String }
        if !ids.isEmpty { try side.task(["rc.bulk=0"] + ids + ["modify", "touched:\(trip)"]) }
        let touched = try side.taskwarriorTasks().values.filter { $0["status"] as? String != "recurring" }
        #expect(touched.allSatisfy { $0["touched"] as? String == "\(trip)" }, "every task touched")
    }

    /// Taskwarrior's `modified` counts whole seconds: an edit there is newer
    /// than what nextup last wrote only from the next second on.
    func waitForTheNextSecond() {
        let second = Date().timeIntervalSince1970.rounded(.down)
        while Date().timeIntervalSince1970 < second + 1 { usleep(5_000) }
    }

    // MARK: The check

    func compare(_ before: [String: [String: Any]], _ after: [String: [String: Any]], _ context: String, ignoring: Set<String>) throws {
        #expect(Set(before.keys) == Set(after.keys), "\(context): tasks \(before.count) → \(after.count)")
        for (id, a) in before {
            let b = after[id] ?? [:]
            for key in Set(a.keys).union(b.keys).subtracting(ignoring) {
                if let x = a[key] as? NSNumber, let y = b[key] as? NSNumber {
                    #expect(x.doubleValue == y.doubleValue, "\(context): \(a["description"] ?? a["title"] ?? id) \(key)")
                    continue
                }
                #expect(canonicalText(a[key] ?? "absent") == canonicalText(b[key] ?? "absent"),
                        "\(context): \(a["description"] ?? a["title"] ?? id) \(key): \(canonicalText(a[key] ?? "absent")) → \(canonicalText(b[key] ?? "absent"))")
            }
        }
    }
}

/// SplitMix64: a seeded generator, so that a failing run can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
