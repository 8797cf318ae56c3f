import NextUpTestSupport
import PropertyBased
import Testing
@testable import NextUpCore

@Suite struct OrderingTests {
    @Test func orderKeysGoStrictlyBetweenAndStayValid() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            var keys: [String] = []
            for _ in 0..<60 {
                let i = keys.isEmpty ? 0 : Int(rng.next() % UInt64(keys.count + 1))
                let lower = i > 0 ? keys[i - 1] : nil
                let upper = i < keys.count ? keys[i] : nil
                let k = OrderKey.between(lower, upper)
                #expect(OrderKey.isValid(k))
                if let lower { #expect(lower < k) }
                if let upper { #expect(k < upper) }
                keys.insert(k, at: i)
            }
            #expect(keys == keys.sorted())
        }
    }

    @Test func appendingManyKeysGrowsSlowly() {
        let keys = OrderKey.keys(count: 1_000, between: nil, nil)
        #expect(keys == keys.sorted())
        #expect(keys.last!.count < 40)
    }

    func task(_ n: Int, created: Int64 = 0, _ edit: (inout TaskItem) -> Void = { _ in }) -> TaskItem {
        var t = TaskItem(id: TaskID("00000000-0000-4000-8000-\(String(repeating: "0", count: 12 - String(n).count))\(n)")!)
        t.title = "t\(n)"
        t.created = created
        edit(&t)
        return t
    }

    @Test func backlogScoreFollowsTheDesignTerms() throws {
        let now: Int64 = 1_000 * 86_400_000
        let plain = task(1, created: now)
        #expect(BacklogScore.score(plain, nowMillis: now) == 0)
        let high = task(2, created: now) { $0.importance = .high; $0.urgency = .urgent }
        #expect(BacklogScore.score(high, nowMillis: now) == 14.0)
        let old = task(3, created: now - 400 * 86_400_000)
        #expect(BacklogScore.score(old, nowMillis: now) == 2.0)
        let dueToday = task(4, created: now) { $0.due = DueDate(epochDay: 1_000) }
        #expect(abs(BacklogScore.score(dueToday, nowMillis: now) - 12 * (14 * 0.8 / 21 + 0.2)) < 1e-9)
        let overdue = task(5, created: now) { $0.due = DueDate(epochDay: 990) }
        #expect(BacklogScore.score(overdue, nowMillis: now) == 12.0)
    }

    @Test func backlogIsRankedDeterministicallyWithTieBreaks() {
        let now: Int64 = 10 * 86_400_000
        let a = task(1, created: 5) { $0.importance = .low }
        let b = task(2, created: 5) { $0.importance = .high }
        let c = task(3, created: 5)
        let d = task(4, created: 4)
        let done = task(5) { $0.completedAt = 1 }
        let next = task(6) { $0.nextUpPosition = "V" }
        let ranked = TaskOrdering.backlog([a, b, c, d, done, next], nowMillis: now)
        #expect(ranked.map(\.title) == ["t2", "t1", "t4", "t3"])
        #expect(TaskOrdering.backlog([d, c, b, a], nowMillis: now) == ranked)
    }

    @Test func nextUpFollowsKeysThenIDs() {
        let x = task(1) { $0.nextUpPosition = "b" }
        let y = task(2) { $0.nextUpPosition = "a" }
        let z = task(3) { $0.nextUpPosition = "a" }
        #expect(TaskOrdering.nextUp([x, y, z]).map(\.title) == ["t2", "t3", "t1"])
    }

    @Test func sortModesPutUnsetLast() throws {
        let a = task(1, created: 1) { $0.duration = try? TaskDuration(minutes: 30) }
        let b = task(2, created: 2)
        let c = task(3, created: 3) { $0.duration = try? TaskDuration(minutes: 5) }
        #expect(TaskOrdering.sorted([a, b, c], by: .duration, nowMillis: 0).map(\.title) == ["t3", "t1", "t2"])
        #expect(TaskOrdering.sorted([a, b, c], by: .created, nowMillis: 0).map(\.title) == ["t3", "t2", "t1"])
        #expect(BacklogSort.score.next == .due && BacklogSort.created.next == .score)
    }
}

