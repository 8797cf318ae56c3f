import NextUpTestSupport
import PropertyBased
import Testing
@testable import NextUpCore

/// A small model of replicas that complete, skip, stop and edit the
/// occurrences of a few series while apart, over years of simulated days,
/// and sync now and then through Core's merge: the invariant written in
/// ``RecurrenceStep``'s contract, checked once everything is merged.
@Suite struct RecurrenceConvergenceTests {
    static let dayMillis: Int64 = 86_400_000

    struct Replica {
        let id: ReplicaID
        /// How far this machine's clock is off, in ms.
        let skew: Int64
        var clock = HybridClock()
        var tasks: [TaskID: TaskItem] = [:]

        /// The series' open occurrences this replica holds (born, neither done nor deleted).
        func open(_ series: TaskID) -> [TaskItem] {
            tasks.values.filter { $0.versions[.created] != nil && $0.isOpen && RecurrenceConvergenceTests.occurrence(of: $0)?.series == series }
        }

        mutating func edit(_ id: TaskID, _ fields: [(TaskField, FieldValue)], now: Int64, expecting: [TaskField: Version?] = [:]) throws {
            var task = tasks[id] ?? TaskItem(id: id)
            _ = try LocalEdit.apply(fields, to: &task, clock: &clock, replica: self.id, now: now + skew, expecting: expecting)
            tasks[id] = task
        }

        /// Takes in everything `other` holds.
        mutating func merge(_ other: Replica) {
            Merge.apply(other.tasks.values.flatMap(\.allChanges), to: &tasks)
        }
    }

    static func occurrence(of task: TaskItem) -> OccurrenceID? { task.value(of: .occurrence).stringValue.flatMap { OccurrenceID($0) } }

    /// What happened anywhere, for the checks at the end.
    struct Record {
        var completed: Set<TaskID> = []
        /// The due dates replicas gave each successor they made.
        var dues: [TaskID: Set<DueDate>] = [:]
        var stopped: Set<TaskID> = []
        var ended: Set<TaskID> = []
        /// The local dates replicas closed each occurrence on.
        var closedOn: [TaskID: Set<DueDate>] = [:]
    }

    /// One closing step (complete or skip) through ``RecurrenceStep``, written
    /// as the store would: the occurrence with the versions seen, then the
    /// successor unless a task under its id is already held.
    static func close(_ task: TaskItem, skipping: Bool, on r: inout Replica, day: DueDate, now: Int64, record: inout Record) throws {
        guard let occurrence = Self.occurrence(of: task) else { return }
        guard let ruleText = task.value(of: .recur).stringValue else {
            // A stopped series' last occurrence is a plain task.
            try r.edit(task.id, [skipping ? (.deleted, .bool(true)) : (.done, .int(now))], now: now)
            if !skipping { record.completed.insert(task.id) }
            return
        }
        let rule = try RecurrenceRule.parse(ruleText)
        let outcome = skipping
            ? try RecurrenceStep.skip(task, occurrence: occurrence, rule: rule, on: day, at: now)
            : try RecurrenceStep.complete(task, occurrence: occurrence, rule: rule, doneOn: day, at: now)
        let seen = Dictionary(uniqueKeysWithValues: outcome.restsOn.map { ($0, task.versions[$0]) })
        try r.edit(task.id, outcome.closingEdits, now: now, expecting: seen)
        if !skipping { record.completed.insert(task.id) }
        record.closedOn[task.id, default: []].insert(day)
        guard let successor = outcome.successor else { record.ended.insert(occurrence.series); return }
        record.dues[successor.id, default: []].insert(successor.due)
        if r.tasks[successor.id]?.versions[.created] == nil {
            try r.edit(successor.id, successor.edits, now: now)
        }
    }

    @Test func replicasApartEndWithOneLiveOccurrencePerSeries() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            do { try Self.run(&rng) } catch { Issue.record("\(error)") }
        }
    }

    static func run(_ rng: inout SeededRandom) throws {
        var replicas = (1...Int(2 + rng.next() % 2)).map { n in
            Replica(id: ReplicaID("00000000-0000-4000-8000-00000000000\(n)")!, skew: Int64(rng.next() % 7_200_000) - 3_600_000)
        }
        var record = Record()
        var day = RecurrenceSamples.date(&rng)
        var tick: Int64 = 0
        func now() -> Int64 { tick += 1; return day.epochDay * dayMillis + 43_200_000 + tick }

        // A few series, made on the first replica and known to all.
        var series: [(id: TaskID, rule: RecurrenceRule, start: DueDate)] = []
        for k in 0..<Int(1 + rng.next() % 3) {
            let id = TaskID.make()
            // A rule that never gives a date from this start (BYMONTH=4 anchored on
            // the 31st) is refused when a series is made: draw another.
            var rule = RecurrenceSamples.rule(&rng, ends: rng.chance(0.2)).anchored(at: day)
            while (try? RecurrenceRule.parse(rule.rrule)) == nil {
                rule = RecurrenceSamples.rule(&rng, ends: rng.chance(0.2)).anchored(at: day)
            }
            series.append((id, rule, day))
            try replicas[0].edit(id, [(.title, .string("series \(k)")), (.due, .string(day.description)), (.created, .int(now())),
                                      (.recur, .string(rule.rrule)), (.occurrence, .string(OccurrenceID.first(of: id).description))], now: now())
        }
        for i in replicas.indices.dropFirst() { replicas[i].merge(replicas[0]) }

        for _ in 0..<Int(40 + rng.next() % 80) {
            let r = Int(rng.next() % UInt64(replicas.count))
            let s = series[Int(rng.next() % UInt64(series.count))].id
            let open = replicas[r].open(s)
            #expect(open.count <= 1, "replica \(r) holds \(open.count) open occurrences")
            switch rng.next() % 10 {
            case 0, 1:
                day = DueDate(epochDay: day.epochDay + Int64(rng.chance(0.7) ? rng.next() % 4 : rng.next() % 60))
            case 2, 3:
                let other = Int(rng.next() % UInt64(replicas.count))
                replicas[r].merge(replicas[other])
            case 4, 5, 6:
                if let task = open.first { try close(task, skipping: false, on: &replicas[r], day: day, now: now(), record: &record) }
            case 7:
                if let task = open.first { try close(task, skipping: true, on: &replicas[r], day: day, now: now(), record: &record) }
            case 8:
                // Edit this one: its title, a tag or its due date; for the
                // series (carried to the next ones) or for this one only.
                if let task = open.first {
                    let thisOnly = rng.chance(0.5)
                    // (A stopped series' occurrence is a plain task: its due date is its own.)
                    let field = thisOnly && rng.chance(0.3) && task.value(of: .recur) != .null ? TaskField.due
                        : rng.chance(0.5) ? TaskField.title : TaskField(rawValue: "tag:t\(rng.next() % 3)")!
                    let value: FieldValue = switch field {
                    case .title: .string("title \(rng.next() % 5)")
                    case .due: .string(DueDate(epochDay: day.epochDay + Int64(rng.next() % 20) - 10).description)
                    default: .bool(rng.chance(0.7))
                    }
                    try replicas[r].edit(task.id, RecurrenceStep.editing([(field, value)], on: task, thisOnly: thisOnly), now: now())
                }
            default:
                if rng.chance(0.3), let task = open.first, let which = Self.occurrence(of: task), task.value(of: .recur) != .null {
                    let outcome = try RecurrenceStep.stop(task, occurrence: which)
                    let seen = Dictionary(uniqueKeysWithValues: outcome.restsOn.map { ($0, task.versions[$0]) })
                    try replicas[r].edit(task.id, outcome.closingEdits, now: now(), expecting: seen)
                    try replicas[r].edit(outcome.stops!, [(.deleted, .bool(true))], now: now())
                    record.stopped.insert(s)
                }
            }
        }

        // Everyone syncs with everyone.
        for _ in 0..<2 { for a in replicas.indices { for b in replicas.indices where a != b { replicas[a].merge(replicas[b]) } } }
        for r in replicas.dropFirst() { #expect(r.tasks == replicas[0].tasks) }

        let tasks = replicas[0]
        for (id, rule, start) in series {
            let open = tasks.open(id)
            if record.stopped.contains(id) || record.ended.contains(id) {
                #expect(open.count <= 1, "\(rule.rrule): \(open.count) open")
            } else {
                #expect(open.count == 1, "\(rule.rrule): \(open.count) open")
            }
            // Every occurrence made: its id, and the due date the rule gives.
            let schedule = RecurrenceSchedule(rule)
            var expectedDue: DueDate? = start
            let made = tasks.tasks.values.filter { $0.versions[.created] != nil && occurrence(of: $0)?.series == id }
                .sorted { occurrence(of: $0)!.number < occurrence(of: $1)!.number }
            for (k, task) in made.enumerated() {
                let which = Self.occurrence(of: task)!
                // The series' due date: a "this one only" due date is the occurrence's own.
                let due = task.seriesView.due
                #expect(which.number == k + 1, "occurrences numbered without gaps")
                #expect(task.id == which.taskID)
                if k > 0 {
                    #expect(record.dues[task.id]?.contains(due!) == true, "a due date a replica gave it")
                    // The rule's date after the predecessor's, on a day a replica closed it.
                    let before = made[k - 1]
                    // (Its due date as any replica made it: replicas that closed the one before it
                    // on different days made it with different ones, and the merge kept one.)
                    let dues = (record.dues[before.id] ?? []).union(k == 1 ? [start] : []).union(before.seriesView.due.map { [$0] } ?? [])
                    let given = Set(record.closedOn[before.id, default: []].flatMap { day in
                        dues.compactMap { schedule.successor(of: k, due: $0, doneOn: day) }
                    })
                    #expect(given.contains(due!), "\(rule.rrule) occurrence \(k + 1): \(String(describing: due)) not in \(given)")
                }
                if rule.basis == .due {
                    #expect(due == expectedDue, "\(rule.rrule) occurrence \(k + 1)")
                    expectedDue = schedule.successor(of: k + 1, due: expectedDue!, doneOn: expectedDue!)
                }
            }
        }
        for id in record.completed { #expect(tasks.tasks[id]?.isDone == true, "a completed occurrence stays done") }
    }
}
