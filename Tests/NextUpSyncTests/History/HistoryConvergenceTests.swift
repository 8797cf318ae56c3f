import Foundation
import NextUpCore
import NextUpStore
import NextUpTestSupport
import Testing
@testable import NextUpSync

/// The history property (issue 36, "Done means"): replicas over real stores
/// make random edits while apart (each published to its own log at once) — each with its own copy of the peer folder,
/// logs reaching it in random order, some mid-way — then everything
/// propagates. Every replica then shows the same history for every task
/// (same entries, same order, same old values and race marks); every value
/// that lost a race (by what its rival's writer really held when it wrote) is
/// marked on every replica; and restoring a lost value from the history, on
/// any replica, converges like any edit.
///
/// Fixed seeds in `make test`; with `NEXTUP_SCHEDULES` set (`make test-more`),
/// more schedules from a random first seed (printed on failure).
@Suite struct HistoryConvergenceTests {
    static var schedules: [UInt64] {
        if let more = ProcessInfo.processInfo.environment["NEXTUP_SCHEDULES"].flatMap(Int.init) {
            let first = UInt64.random(in: 0..<(1 << 40))
            return (0..<max(6, more / 50)).map { first + UInt64($0) }
        }
        return (0..<6).map { 0x4157_0000 + UInt64($0) }
    }

    @Test func historiesConvergeRacesAreMarkedAndRestoresConverge() throws {
        var failures: [String] = []
        var races = 0, dropped = 0
        for seed in Self.schedules {
            let problems = try run(seed: seed, races: &races, dropped: &dropped)
            if !problems.isEmpty { failures.append("seed \(seed): " + problems.prefix(4).joined(separator: "; ")) }
            if failures.count >= 2 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(races > 0, "the schedules made no race to mark")
        #expect(dropped > 0, "retention dropped nothing in any schedule")
    }

    /// One replica: a real store, its own copy of the folder, its own clock.
    final class Machine {
        let folder = InMemoryPeerFolder()
        let clock: TestClock
        let home: TemporaryFolder
        let store: TaskStore
        let cycle: SyncCycle
        init(clock: TestClock) throws {
            self.clock = clock
            home = try TemporaryFolder("history")
            store = try TaskStore.open(StoreLocation(folder: home.url), clock: clock)
            cycle = SyncCycle(storage: TaskStoreSyncStorage(store: store), folder: folder, clock: clock,
                              options: SyncOptions(compactionMinimumBytes: 1_500, compactionFactor: 2))
        }
        var logName: String { get throws { LogFormat.fileName(for: try store.replicaID()) } }
    }

    /// A change as made, with what its writer held for the field then.
    struct Made { let change: FieldChange; let held: Version? }

    func run(seed: UInt64, races: inout Int, dropped: inout Int) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let count = Int.random(in: 2...4, using: &rng)
        let machines = try (0..<count).map { _ in try Machine(clock: TestClock(offset: Int64.random(in: -5_000...5_000, using: &rng))) }
        for (i, machine) in machines.enumerated() { try machine.store.setMachineName("m\(i)") }
        var made: [Made] = []

        func propagate(_ from: Int, _ to: Int) throws {
            guard from != to, let bytes = machines[from].folder.contents(of: try machines[from].logName) else { return }
            machines[to].folder.put(try machines[from].logName, bytes)
        }
        func everyoneMeetsEveryone() throws {
            for _ in 0..<2 {
                for m in machines { _ = try m.cycle.run() }
                for a in machines.indices { for b in machines.indices { try propagate(a, b) } }
                for m in machines { _ = try m.cycle.run() }
            }
        }

        // A shared start: tasks made on the first machine, seen by all.
        var ids: [TaskID] = []
        for n in 0..<Int.random(in: 1...3, using: &rng) {
            ids.append(try machines[0].store.add(try TaskDraft(title: "task \(n)")).id)
        }
        try everyoneMeetsEveryone()

        // Apart: random edits, logs reaching some machines mid-way.
        let titles = ["alpha", "beta", "gamma", "delta"]
        for _ in 0..<Int.random(in: 8...30, using: &rng) {
            let m = Int.random(in: 0..<count, using: &rng)
            let machine = machines[m]
            machine.clock.advance(Int64.random(in: 1...2_000, using: &rng))
            let id = ids.randomElement(using: &rng)!
            let before = try machine.store.versions(of: [id])[id] ?? [:]
            let result: TaskStore.WriteResult
            switch Int.random(in: 0..<6, using: &rng) {
            case 0, 1: result = try machine.store.edit(id, set: [(.title, .string(titles.randomElement(using: &rng)!))])
            case 2: result = try machine.store.edit(id, set: [(.urgency, [.string("urgent"), .string("not-urgent"), .null].randomElement(using: &rng)!)])
            case 3: result = try machine.store.edit(id, set: [(.tag("work"), .bool(Bool.random(using: &rng)))])
            case 4: result = Bool.random(using: &rng) ? try machine.store.complete(id) : try machine.store.reopen(id)
            default: result = Bool.random(using: &rng) ? try machine.store.delete(id) : try machine.store.restore(id)
            }
            made += result.changes.map { Made(change: $0, held: before[$0.field]) }
            // Published at once, as a command and the TUI do: a value replaced
            // on its own machine before it was published is in that machine's
            // history only, until its log is next rewritten.
            _ = try machine.cycle.publish()
            if rng.chance(0.3) { _ = try machine.cycle.run() }
            if rng.chance(0.3) {
                try propagate(Int.random(in: 0..<count, using: &rng), Int.random(in: 0..<count, using: &rng))
                _ = try machines.randomElement(using: &rng)!.cycle.run()
            }
        }
        // Together again, logs arriving in a random order.
        for _ in 0..<count * 2 {
            try propagate(Int.random(in: 0..<count, using: &rng), Int.random(in: 0..<count, using: &rng))
            _ = try machines.randomElement(using: &rng)!.cycle.run()
        }
        try everyoneMeetsEveryone()

        var problems = try compare(machines, ids)
        // Every value that lost a race is marked, on every machine.
        for a in made {
            let lost = made.contains { b in
                b.change.task == a.change.task && b.change.field == a.change.field && b.change.version > a.change.version
                    && b.change.version.replica != a.change.version.replica && b.change.value != a.change.value
                    && (b.held.map { $0 < a.change.version } ?? true)
            }
            for (i, machine) in machines.enumerated() {
                let line = try machine.store.history(of: a.change.task).first { $0.entry.field == a.change.field && $0.entry.version == a.change.version }
                guard let line else { problems.append("m\(i) lacks \(a.change.field) \(a.change.version)"); continue }
                if lost && i == 0 { races += 1 }
                if lost != (line.lostTo != nil) { problems.append("m\(i): \(a.change.field) \(a.change.version) lost \(lost), marked \(line.lostTo != nil)") }
            }
        }
        guard problems.isEmpty else { return problems }

        // Restore a lost value (or any earlier one) on a random machine; it converges.
        let restorer = machines.randomElement(using: &rng)!
        let id = ids.randomElement(using: &rng)!
        let lines = try restorer.store.history(of: id)
        let candidates = lines.filter { !$0.isCurrent && TaskStore.restorable($0.entry.field) }
        if let pick = candidates.first(where: { $0.lostTo != nil }) ?? candidates.randomElement(using: &rng) {
            let current = lines.first { $0.isCurrent && $0.entry.field == pick.entry.field }!.entry.version
            restorer.clock.advance(1_000)
            _ = try restorer.store.restoreHistoryEntry(id, handle: TaskHistory.handle(of: pick.entry, current: current))
            try everyoneMeetsEveryone()
            for (i, machine) in machines.enumerated() {
                let value = try machine.store.resolve(id.rawValue).value(of: pick.entry.field)
                if value != pick.entry.value { problems.append("m\(i) holds \(value) for \(pick.entry.field) after the restore, not \(pick.entry.value)") }
            }
            problems += try compare(machines, ids)
        }
        guard problems.isEmpty else { return problems }
        problems += try retention(machines, ids, dropped: &dropped)
        return problems
    }

    /// `[history] keep` on each machine, far in the future: only values
    /// every other machine merged past may go; what stays is a suffix of each
    /// field's history (every kept line as it was, its race mark included,
    /// only the oldest kept one's old value may be lost); current values stay.
    func retention(_ machines: [Machine], _ ids: [TaskID], dropped: inout Int) throws -> [String] {
        var problems: [String] = []
        for (i, machine) in machines.enumerated() {
            let before = try ids.map { try machine.store.history(of: $0) }
            dropped += try HistoryRetention.apply(machine.store, keepDays: 1, now: machine.clock.nowMillis() + 10 * 86_400_000)
            for (n, id) in ids.enumerated() {
                let after = try machine.store.history(of: id)
                for field in Set(before[n].map(\.entry.field)) {
                    let was = before[n].filter { $0.entry.field == field }, now = after.filter { $0.entry.field == field }
                    guard now.count >= 1, now.count <= was.count, now.first == was.first else {
                        problems.append("m\(i) \(id.short) \(field): kept \(now.count) of \(was.count), current kept \(now.first == was.first)")
                        continue
                    }
                    for (a, b) in zip(now, was) where a != b {
                        let oldest = a.entry == now.last?.entry
                        if !(oldest && a.entry == b.entry && a.lostTo == b.lostTo && a.isCurrent == b.isCurrent) {
                            problems.append("m\(i) \(id.short) \(field): \(a) was \(b)")
                        }
                    }
                }
            }
        }
        return problems
    }

    /// The histories differ nowhere.
    func compare(_ machines: [Machine], _ ids: [TaskID]) throws -> [String] {
        var problems: [String] = []
        for id in ids {
            let first = try machines[0].store.history(of: id)
            for (i, machine) in machines.enumerated().dropFirst() {
                let other = try machine.store.history(of: id)
                if other != first || other.map(\.entry.note) != first.map(\.entry.note) {
                    let a = Set(first.map { "\($0.entry.field) \($0.entry.version) \($0.entry.value)" }), b = Set(other.map { "\($0.entry.field) \($0.entry.version) \($0.entry.value)" })
                    problems.append("task \(id.short): m\(i)'s history differs from m0's (\(other.count) vs \(first.count) lines; only m0: \(a.subtracting(b).sorted()); only m\(i): \(b.subtracting(a).sorted()))")
                }
            }
        }
        return problems
    }
}
