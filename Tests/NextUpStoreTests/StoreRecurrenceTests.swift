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

    /// The property: several machines complete, skip, edit and sync
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

    static let rules = ["every monday", "monthly on the 31st", "every year on 29 feb", "every 2 weeks", "weekdays",
                        "FREQ=MONTHLY;BYMONTHDAY=31", "monthly on the last friday", "every 3 months"]

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
                    _ = try m.store.completeOccurrence(task.id, today: m.today())
                    completed.insert(task.id)
                }
            case 7:
                if let task = open.first, task.isRecurring { _ = try m.store.skipOccurrence(task.id, today: m.today()) }
            case 8:
                if let task = open.first { _ = try m.store.edit(task.id, set: [(.title, .string("title \(rng.next() % 4)"))]) }
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
            if stopped.contains(id) {
                #expect(open.count <= 1, "seed \(seed) \(rule.rrule): \(open.count) open")
            } else {
                #expect(open.count == 1, "seed \(seed) \(rule.rrule): \(open.count) open")
            }
            var due: DueDate? = start
            for (k, task) in made.enumerated() {
                #expect(task.occurrence?.number == k + 1 && task.id == task.occurrence?.taskID, "seed \(seed): numbered without gaps")
                #expect(task.due == due, "seed \(seed) \(rule.rrule) occurrence \(k + 1)")
                due = due.flatMap { RecurrenceSchedule(rule).successor(of: k + 1, due: $0, doneOn: $0) }
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
