import Foundation
import NextUpCore
import NextUpTestSupport
import Synchronization
import Testing
@testable import NextUpStore

/// The store's series intents (``TaskStore/completeOccurrence(_:today:expecting:)``,
/// skip, stop) on real stores, exchanging their changes as sync does
/// (``TaskStore/mergeRemote(_:state:)``).
@Suite struct StoreRecurrenceTests {
    static let day: Int64 = 86_400_000

    /// A machine's clock, moved by hand.
    final class Clock: PhysicalClock, Sendable {
        let millis: Mutex<Int64>
        init(_ millis: Int64) { self.millis = Mutex(millis) }
        func nowMillis() -> Int64 { millis.withLock { $0 } }
        func set(_ value: Int64) { millis.withLock { $0 = value } }
    }

    struct Machine {
        let store: TaskStore
        let clock: Clock
        /// This machine's local UTC offset in hours (its daylight saving time
        /// moves it): what its `today` is.
        var offsetHours: Int64 = 1

        func today() -> DueDate {
            let local = clock.nowMillis() + offsetHours * 3_600_000
            return DueDate(epochDay: local / StoreRecurrenceTests.day)
        }

        /// Takes in everything `other` holds, as a sync would.
        func merge(_ other: Machine) throws {
            _ = try store.mergeRemote(try other.store.allTasks().flatMap(\.allChanges) + other.store.unbornChanges())
        }

        func open(_ series: TaskID) throws -> [TaskItem] {
            try store.allTasks().filter { $0.isOpen && $0.occurrence?.series == series }
        }
    }

    static func machines(_ n: Int, _ tmp: TemporaryFolder, at millis: Int64) throws -> [Machine] {
        try (0..<n).map { i in
            let clock = Clock(millis + Int64(i) * 7_000)
            return Machine(store: try TaskStore.open(StoreLocation(folder: tmp.path("m\(i)")), clock: clock), clock: clock)
        }
    }

    static func series(_ title: String, _ rule: String, due: String, on m: Machine) throws -> TaskItem {
        var draft = try TaskDraft(title: title)
        draft.values[.recur] = .string(try RecurrenceRule.parse(rule).rrule)
        draft.due = try DueDate.parse(due)
        return try m.store.add(draft)
    }

    @Test func twoMachinesCompletingTheSameOccurrenceApartMakeOneSuccessor() throws {
        let tmp = TemporaryFolder()
        let ms = try Self.machines(2, tmp, at: 1_795_000_000_000)
        let first = try Self.series("Weekly review", "every monday", due: "2026-11-30", on: ms[0])
        #expect(first.occurrence == OccurrenceID.first(of: first.id))
        try ms[1].merge(ms[0])
        let a = try ms[0].store.completeOccurrence(first.id, today: ms[0].today())
        let b = try ms[1].store.completeOccurrence(first.id, today: ms[1].today())
        #expect(a.madeSuccessor && b.madeSuccessor)
        #expect(a.successor?.id == b.successor?.id)
        #expect(a.successor?.due == (try DueDate.parse("2026-12-07")))
        try ms[0].merge(ms[1])
        try ms[1].merge(ms[0])
        for m in ms {
            let open = try m.open(first.id)
            #expect(open.count == 1)
            #expect(open.first?.occurrence?.number == 2)
            #expect(try m.store.task(first.id)?.isDone == true)
        }
        #expect(try ms[0].store.allTasks() == ms[1].store.allTasks())
        // Completing it again here finds the successor held: nothing new is made.
        let again = try ms[0].store.completeOccurrence(try #require(a.successor).id, today: ms[0].today())
        #expect(again.successor?.occurrence?.number == 3)
    }

    @Test func aStaleViewIsRefusedAndMakesNoSuccessor() throws {
        let tmp = TemporaryFolder()
        let m = try Self.machines(1, tmp, at: 1_795_000_000_000)[0]
        let first = try Self.series("Pay rent", "monthly on the 31st", due: "2027-01-31", on: m)
        let seen = first.versions[.title]
        _ = try m.store.edit(first.id, set: [(.title, .string("Pay the rent"))])
        #expect(throws: StaleWrite.self) { try m.store.completeOccurrence(first.id, today: m.today(), expecting: [.title: seen]) }
        #expect(try m.store.allTasks().count == 1)
        let step = try m.store.completeOccurrence(first.id, today: m.today())
        // Month ends: the 31st becomes February's last day; the edit is carried.
        #expect(step.successor?.due == (try DueDate.parse("2027-02-28")))
        #expect(step.successor?.title == "Pay the rent")
    }

    @Test func skipStopAndADeferDateThatKeepsItsDistance() throws {
        let tmp = TemporaryFolder()
        let ms = try Self.machines(2, tmp, at: 1_795_000_000_000)
        let first = try Self.series("Water plants", "every 2 weeks", due: "2026-12-10", on: ms[0])
        _ = try ms[0].store.edit(first.id, set: [(.deferDate, .string("2026-12-08"))])
        let skipped = try ms[0].store.skipOccurrence(first.id, today: ms[0].today())
        #expect(try ms[0].store.task(first.id)?.deleted == true)
        let second = try #require(skipped.successor)
        #expect(second.due == (try DueDate.parse("2026-12-24")))
        #expect(second.deferDate == (try DueDate.parse("2026-12-22")))
        try ms[1].merge(ms[0])
        // Stopped here; completed there while apart: the successor arrives deleted.
        let stopped = try ms[0].store.stopSeries(second.id)
        #expect(stopped.task.recur == nil && stopped.task.isOpen)
        let there = try ms[1].store.completeOccurrence(second.id, today: ms[1].today())
        #expect(there.madeSuccessor)
        try ms[0].merge(ms[1])
        try ms[1].merge(ms[0])
        for m in ms { #expect(try m.open(first.id).isEmpty, "a stopped series makes no live occurrence") }
        #expect(throws: TaskInputError.self) { try ms[0].store.skipOccurrence(second.id, today: ms[0].today()) }
    }

    /// A series stopped and then given a rule again goes on: its next
    /// occurrence, whose id the stop marked deleted, is made alive.
    @Test func aSeriesStartedAgainAfterAStopGoesOn() throws {
        let tmp = TemporaryFolder()
        let m = try Self.machines(1, tmp, at: 1_795_000_000_000)[0]
        let first = try Self.series("Weekly review", "every monday", due: "2026-11-30", on: m)
        _ = try m.store.stopSeries(first.id)
        m.clock.set(m.clock.nowMillis() + 1_000)
        _ = try m.store.edit(first.id, set: [(.recur, .string(try RecurrenceRule.parse("every monday").rrule))])
        let done = try m.store.completeOccurrence(first.id, today: m.today())
        let next = try #require(done.successor)
        #expect(done.madeSuccessor && next.isOpen, "\(next)")
        #expect(try m.open(first.id).map(\.id) == [next.id])
    }

    /// "This one only": the occurrence's own title, due date and tag; the
    /// successor takes the series' values. An edit without it is the
    /// series', and clears what was this one's own.
    @Test func anEditOfThisOneOnlyLeavesTheSeriesAsItWas() throws {
        let tmp = TemporaryFolder()
        let m = try Self.machines(1, tmp, at: 1_795_000_000_000)[0]
        let first = try Self.series("Weekly review", "every monday", due: "2026-11-30", on: m)
        _ = try m.store.edit(first.id, set: [(.tag("home"), .bool(true))])
        let own = try m.store.edit(first.id, set: [(.title, .string("Review, with Ann")), (.due, .string("2026-12-01")),
                                                   (.tag("ann"), .bool(true)), (.tag("home"), .bool(false))], thisOnly: true).task
        #expect(own.thisOnlyFields == [.title, .due, .tag("ann"), .tag("home")])
        #expect(own.extra[.series(.title)] == .string("Weekly review"))
        #expect(own.title == "Review, with Ann" && own.tags == ["ann"])
        let second = try #require(try m.store.completeOccurrence(first.id, today: m.today()).successor)
        #expect(second.title == "Weekly review" && second.tags == ["home"])
        #expect(second.due == (try DueDate.parse("2026-12-07")), "counted from the series' date, not this one's")
        #expect(second.thisOnlyFields.isEmpty)
        // This one only, then the series: the series' value wins for both.
        _ = try m.store.edit(second.id, set: [(.title, .string("Quick review"))], thisOnly: true)
        let series = try m.store.edit(second.id, set: [(.title, .string("Weekly planning"))]).task
        #expect(series.title == "Weekly planning" && series.thisOnlyFields.isEmpty)
        // Set back to the series' value, this one only: no longer its own.
        _ = try m.store.edit(series.id, set: [(.notes, .string("agenda"))], thisOnly: true)
        #expect(try m.store.edit(series.id, set: [(.notes, .string(""))], thisOnly: true).task.thisOnlyFields.isEmpty)
        // A field the series leaves unset: this one's own category, none for the next.
        let mine = try m.store.edit(series.id, set: [(.category, .string("Work"))], thisOnly: true).task
        #expect(mine.thisOnlyFields == [.category] && mine.seriesView.category == nil)
        let third = try #require(try m.store.completeOccurrence(second.id, today: m.today()).successor)
        #expect(third.title == "Weekly planning" && third.category == nil)
    }

    /// `undo` after completing an occurrence takes back the completion and
    /// the successor it made, at once.
    @Test func oneUndoTakesBackACompletionAndItsSuccessor() throws {
        let tmp = TemporaryFolder()
        let m = try Self.machines(1, tmp, at: 1_795_000_000_000)[0]
        let first = try Self.series("Weekly review", "every monday", due: "2026-11-30", on: m)
        let plain = try m.store.add(try TaskDraft(title: "Plain"))
        let step = try m.store.completeOccurrence(first.id, today: m.today())
        let second = try #require(step.successor)
        guard case .undone(let task, _, false) = try m.store.undoLastChange() else { Issue.record("not undone"); return }
        #expect(task.id == first.id && task.isOpen)
        #expect(try m.store.task(second.id)?.deleted == true)
        #expect(try m.open(first.id).map(\.id) == [first.id])
        // The next undo is the change before: the plain task's add.
        guard case .undone(let added, _, true) = try m.store.undoLastChange() else { Issue.record("not undone"); return }
        #expect(added.id == plain.id)
        // Done again, the successor (deleted by the undo) is the same id, alive.
        let again = try m.store.completeOccurrence(first.id, today: m.today())
        #expect(again.successor?.id == second.id && again.successor?.isOpen == true)
        #expect(try m.open(first.id).map(\.id) == [second.id])
    }

    /// `count` counts what `list` shows: a task deferred to a later date is in neither.
    @Test func countLeavesOutDeferredTasks() throws {
        let tmp = TemporaryFolder()
        let m = try Self.machines(1, tmp, at: 1_795_000_000_000)[0]
        let later = try m.store.add(try TaskDraft(title: "Later"))
        _ = try m.store.add(try TaskDraft(title: "Now"))
        let today = m.today()
        _ = try m.store.edit(later.id, set: [(.deferDate, .string(DueDate(epochDay: today.epochDay + 3).description))])
        #expect(try m.store.openCounts(on: today) == (1, 1))
        #expect(try m.store.openCounts(on: DueDate(epochDay: today.epochDay + 3)) == (2, 0))
    }

    /// The issue's property: several machines complete, skip, edit and sync
    /// while apart over years of simulated days (daylight saving time moving
    /// each machine's local offset, month ends, leap days); once everyone has
    /// synced, each unstopped series has exactly one live occurrence, due on
    /// the date its rule gives, and every occurrence completed anywhere is
    /// done. Fixed seeds here; `NEXTUP_SCHEDULES` (make test-more) adds random ones.
    @Test func machinesApartConvergeToOneLiveOccurrencePerSeries() throws {
        var seeds: [UInt64] = [1, 2, 3, 5, 8, 13]
        if let raw = ProcessInfo.processInfo.environment["NEXTUP_SCHEDULES"], let n = Int(raw), n > 500 {
            seeds += (0..<n / 100).map { _ in UInt64.random(in: 0...UInt64.max) }
        }
        for seed in seeds { try Self.schedule(seed: seed) }
    }

    /// Every kind of schedule: on fixed dates, after completion, the next
    /// future date; with and without COUNT and UNTIL.
    static let rules = ["every monday", "monthly on the 31st", "every year on 29 feb", "every 2 weeks", "weekdays",
                        "FREQ=MONTHLY;BYMONTHDAY=31", "monthly on the last friday", "every 3 months",
                        "3 days after done", "every 2 weeks after done", "a month after done",
                        "daily skipping missed", "every monday skipping missed", "monthly on the 31st skipping missed",
                        "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=6", "FREQ=DAILY;INTERVAL=3;UNTIL=20280301",
                        "FREQ=DAILY;INTERVAL=4;COUNT=5;X-NEXTUP-FROM=DONE"]

    static func schedule(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let tmp = TemporaryFolder()
        // 2027-10-20: daylight saving time ends within days, a leap year is a year off.
        var now: Int64 = 1_824_000_000_000
        var ms = try machines(2 + Int(rng.next() % 2), tmp, at: now)
        func tick(_ millis: Int64) {
            now += millis
            for (i, m) in ms.enumerated() {
                m.clock.set(now + Int64(i) * 7_000)
                // Summer time from the end of March to the end of October.
                let month = DueDate(epochDay: now / day).month
                ms[i].offsetHours = (4...10).contains(month) ? 2 : 1
            }
        }
        var series: [(id: TaskID, rule: RecurrenceRule, start: DueDate)] = []
        for k in 0..<2 {
            let text = rules[Int(rng.next() % UInt64(rules.count))]
            let start = DueDate(epochDay: now / day + Int64(rng.next() % 40))
            let task = try Self.series("series \(k)", text, due: start.description, on: ms[0])
            series.append((task.id, try #require(task.recur), start))
        }
        for i in ms.indices.dropFirst() { try ms[i].merge(ms[0]) }
        var completed: Set<TaskID> = []
        var stopped: Set<TaskID> = []
        var ended: Set<TaskID> = []
        // The local dates machines closed each occurrence on.
        var closedOn: [TaskID: Set<DueDate>] = [:]
        // The due dates machines made each successor with.
        var dues: [TaskID: Set<DueDate>] = [:]
        func note(_ step: TaskStore.SeriesStep, _ s: TaskID) {
            if step.successor == nil { ended.insert(s) }
            if step.madeSuccessor, let next = step.successor, let due = next.due { dues[next.id, default: []].insert(due) }
        }
        for _ in 0..<60 {
            let m = ms[Int(rng.next() % UInt64(ms.count))]
            let s = series[Int(rng.next() % UInt64(series.count))].id
            let open = try m.open(s)
            #expect(open.count <= 1, "seed \(seed): \(open.count) open here")
            switch rng.next() % 10 {
            case 0, 1: tick(Int64(1 + rng.next() % (rng.next() % 4 == 0 ? 90 : 9)) * day + Int64(rng.next() % 3_600_000))
            case 2, 3: try m.merge(ms[Int(rng.next() % UInt64(ms.count))])
            case 4, 5, 6:
                if let task = open.first, task.isRecurring {
                    note(try m.store.completeOccurrence(task.id, today: m.today()), s)
                    completed.insert(task.id)
                    closedOn[task.id, default: []].insert(m.today())
                }
            case 7:
                if let task = open.first, task.isRecurring {
                    note(try m.store.skipOccurrence(task.id, today: m.today()), s)
                    closedOn[task.id, default: []].insert(m.today())
                }
            case 8:
                // For the series, or for this one only: its title, a tag, its due date.
                if let task = open.first {
                    let thisOnly = rng.next() % 2 == 0
                    switch rng.next() % 3 {
                    case 0: _ = try m.store.edit(task.id, set: [(.title, .string("title \(rng.next() % 4)"))], thisOnly: thisOnly)
                    case 1: _ = try m.store.edit(task.id, set: [(.tag("t\(rng.next() % 2)"), .bool(rng.next() % 3 != 0))], thisOnly: thisOnly)
                    default:
                        if thisOnly, task.isRecurring, let due = task.due {
                            let moved = DueDate(epochDay: due.epochDay + Int64(rng.next() % 9) - 4)
                            _ = try m.store.edit(task.id, set: [(.due, .string(moved.description))], thisOnly: true)
                        }
                    }
                }
            default:
                if rng.next() % 4 == 0, let task = open.first, task.isRecurring {
                    _ = try m.store.stopSeries(task.id)
                    stopped.insert(s)
                }
            }
        }
        for _ in 0..<2 { for a in ms { for b in ms where a.store !== b.store { try a.merge(b) } } }
        let all = try ms[0].store.allTasks()
        for m in ms.dropFirst() { #expect(try m.store.allTasks() == all, "seed \(seed): machines differ") }
        for (id, rule, start) in series {
            let made = all.filter { $0.occurrence?.series == id }.sorted { $0.occurrence!.number < $1.occurrence!.number }
            let open = made.filter(\.isOpen)
            if stopped.contains(id) || ended.contains(id) {
                #expect(open.count <= 1, "seed \(seed) \(rule.rrule): \(open.count) open")
            } else {
                #expect(open.count == 1, "seed \(seed) \(rule.rrule): \(open.count) open")
            }
            var due: DueDate? = start
            for (k, task) in made.enumerated() {
                // The series' due date: a "this one only" one is the occurrence's own.
                let seriesDue = task.seriesView.due
                #expect(task.occurrence?.number == k + 1 && task.id == task.occurrence?.taskID, "seed \(seed): numbered without gaps")
                if k == 0 { #expect(seriesDue == start, "seed \(seed) \(rule.rrule): the first")
                } else {
                    // The rule's date after the predecessor's, on a day a machine closed that one.
                    let before = made[k - 1]
                    // (Its due date as any machine made it: machines that closed the one before it
                    // on different days made it with different ones, and the merge kept one.)
                    let candidates = (dues[before.id] ?? []).union(k == 1 ? [start] : []).union(before.seriesView.due.map { [$0] } ?? [])
                    let given = Set(closedOn[before.id, default: []].flatMap { day in
                        candidates.compactMap { RecurrenceSchedule(rule).successor(of: k, due: $0, doneOn: day) }
                    })
                    #expect(seriesDue.map(given.contains) == true, "seed \(seed) \(rule.rrule) occurrence \(k + 1): \(String(describing: seriesDue)) not in \(given)")
                }
                if rule.basis == .due {
                    #expect(seriesDue == due, "seed \(seed) \(rule.rrule) occurrence \(k + 1)")
                    due = due.flatMap { RecurrenceSchedule(rule).successor(of: k + 1, due: $0, doneOn: $0) }
                }
            }
        }
        for id in completed { #expect(all.first { $0.id == id }?.isDone == true, "seed \(seed): a completed occurrence stays done") }
    }
}

extension TaskStore {
    /// The changes held for tasks whose creation has not arrived (a stop's
    /// mark on the next occurrence's id): a sync passes them on too.
    func unbornChanges() throws -> [FieldChange] {
        try database.read { try TaskRow.fetchAll($0, where: "created < 0") }.flatMap(\.allChanges)
    }
}
