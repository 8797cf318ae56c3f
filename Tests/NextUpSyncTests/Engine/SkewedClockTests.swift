import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpSync

/// The merge under clocks that run ahead or behind (issue 31, item 2).
///
/// The invariants (``Merge``, ``LocalEdit``, ``HybridClock``), as tested here:
/// - **Converge.** Replicas that merged the same changes hold the same tasks,
///   whatever their clocks (the merge is a maximum: commutative, associative,
///   idempotent, and never reads a clock).
/// - **An edit that saw a value beats it**, on every replica, however far
///   ahead the version it saw.
/// - **A clock ahead affects at most its own tasks.** On a task that no
///   machine with a clock ahead wrote, of two edits made further apart in
///   real time than the honest machines' skew, the later one wins — even on
///   a machine that merged versions from a clock days or a year ahead.
///
/// Real time moves 5 s per step; honest clocks are within 1.5 s of it; the
/// other clocks run seconds, days or most of a year ahead, or days behind.
@Suite struct SkewedClockTests {
    static var scheduleCount: Int {
        max(20, (ProcessInfo.processInfo.environment["NEXTUP_SCHEDULES"].flatMap(Int.init) ?? 500) / 5)
    }

    struct Write {
        let task: TaskID
        let field: TaskField
        let value: FieldValue
        let realTime: Int64
    }

    @Test func laterEditsWinOnEveryTaskNoClockAheadWrote() throws {
        var failures: [String] = []
        for n in 0..<Self.scheduleCount {
            let problems = try runSchedule(seed: 0x5C3E_0000 + UInt64(n))
            if !problems.isEmpty { failures.append("seed \(0x5C3E_0000 + UInt64(n)): " + problems.prefix(4).joined(separator: "; ")) }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    func runSchedule(seed: UInt64) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let folder = InMemoryPeerFolder()
        let count = Int.random(in: 3...4, using: &rng)
        let honest: [Int64] = [0, 1_500, -1_500]
        let skews: [Int64] = [3_000, 45 * oneDay, 300 * oneDay, -20 * oneDay]
        // Replica 0 is honest; each other one is off with a chance.
        let offsets = (0..<count).map { i -> Int64 in
            i > 0 && rng.chance(0.5) ? skews.randomElement(using: &rng)! : honest.randomElement(using: &rng)!
        }
        let isHonest = offsets.map { abs($0) <= 1_500 }
        let clocks = offsets.map { TestClock(offset: $0) }
        let replicas = (0..<count).map { FakeReplica(folder: folder, clock: clocks[$0]) }
        var realTime: Int64 = 0
        func advance() {
            realTime += 5_000
            for clock in clocks { clock.advance(5_000) }
        }

        let ids = (0..<6).map { replicas[0].add("task \($0)") }
        try replicas[0].sync()
        for r in replicas.dropFirst() { try r.sync() }
        // The tasks a machine with a clock off may write; the others only honest ones.
        let open = Set(ids.prefix(2))
        var writes: [Write] = []
        var unique = 0
        var log: [String] = []
        for _ in 0..<Int.random(in: 30...60, using: &rng) {
            advance()
            let i = Int.random(in: 0..<count, using: &rng)
            if rng.chance(0.6) {
                let pool = isHonest[i] ? ids : Array(open)
                let task = pool.randomElement(using: &rng)!
                let field: TaskField = rng.chance(0.5) ? .title : .notes
                unique += 1
                let value = FieldValue.string("v\(unique) by r\(i)")
                replicas[i].set(task, [(field, value)])
                writes.append(Write(task: task, field: field, value: value, realTime: realTime))
                log.append("r\(i) \(field.rawValue) \(value)")
            } else {
                _ = try replicas[i].sync()
                log.append("r\(i) sync")
            }
        }
        for _ in 0..<2 { for r in replicas { advance(); try r.sync() } }

        var problems: [String] = []
        let first = replicas[0].storage.tasks
        for (i, r) in replicas.enumerated().dropFirst() where r.storage.tasks != first {
            problems.append("replica \(i) differs from replica 0 (offsets \(offsets))")
        }
        var latest: [String: Write] = [:]
        for w in writes where !open.contains(w.task) { latest["\(w.task)|\(w.field.rawValue)"] = w }
        for w in latest.values {
            let held = first[w.task]?.value(of: w.field)
            if held != w.value {
                problems.append("\(w.task.short).\(w.field.rawValue) holds \(held.map { "\($0)" } ?? "nothing"), not the latest write \(w.value) (offsets \(offsets); \(log.suffix(6)))")
            }
        }
        return problems
    }

    @Test func anEditThatSawAVersionAYearAheadBeatsIt() throws {
        let folder = InMemoryPeerFolder()
        let ahead = FakeReplica(folder: folder, clock: TestClock(offset: 360 * oneDay))
        let honest = FakeReplica(folder: folder, clock: TestClock())
        let id = ahead.add("from the future")
        try ahead.sync(); try honest.sync()
        honest.set(id, [(.title, .string("seen and changed"))])
        let other = honest.add("another task")
        try honest.sync(); try ahead.sync()
        #expect(ahead.storage.task(id)?.title == "seen and changed")
        // The other task's versions follow this machine's clock, not the future.
        let version = try #require(honest.storage.task(other)?.versions[.title])
        #expect(version.timestamp.millis <= TestClock().nowMillis() + HybridClock.followAhead + 1)
    }
}
