import NextUpTestSupport
import PropertyBased
import Testing
@testable import NextUpCore

/// ``NextUpPlace``: a task lands exactly at the place asked, also among
/// tied order keys (two replicas that each put tasks in Next Up while apart).
@Suite struct NextUpPlaceTests {
    /// Next Up tasks with keys drawn from a tiny set, so that most keys tie.
    static func tiedList(_ rng: inout SeededRandom, count: Int) -> [TaskID: TaskItem] {
        var tasks: [TaskID: TaskItem] = [:]
        for _ in 0..<count {
            var t = TaskItem(id: TaskID.make())
            t.title = "t"
            t.nextUpPosition = ["V", "W", "X"][Int(rng.next() % 3)]
            tasks[t.id] = t
        }
        return tasks
    }

    /// Applies a place; returns the new order and how many keys were written.
    static func apply(_ place: NextUpPlace, to id: TaskID, _ tasks: inout [TaskID: TaskItem]) throws -> ([TaskID], Int) {
        let keys = try place.keys(for: id, in: Array(tasks.values))
        for (task, key) in keys {
            #expect(OrderKey.isValid(key), "\(key)")
            tasks[task]!.nextUpPosition = key
        }
        return (TaskOrdering.nextUp(Array(tasks.values)).map(\.id), keys.count)
    }

    @Test func afterAndBeforeLandExactlyThereAmongTiedKeys() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            var tasks = Self.tiedList(&rng, count: 2 + Int(rng.next() % 7))
            for _ in 0..<6 {
                let order = TaskOrdering.nextUp(Array(tasks.values)).map(\.id)
                let id = order[Int(rng.next() % UInt64(order.count))]
                let anchor = order.filter { $0 != id }[Int(rng.next() % UInt64(order.count - 1))]
                let after = rng.next() % 2 == 0
                var want = order.filter { $0 != id }
                let i = want.firstIndex(of: anchor)!
                want.insert(id, at: after ? i + 1 : i)
                let (got, _) = try! Self.apply(after ? .after(anchor) : .before(anchor), to: id, &tasks)
                #expect(got == want, "seed \(seed)")
            }
        }
    }

    @Test func jAndKMoveExactlyOnePlaceEveryTime() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            var tasks = Self.tiedList(&rng, count: 2 + Int(rng.next() % 7))
            let start = TaskOrdering.nextUp(Array(tasks.values)).map(\.id)
            let moving = start[0]
            // J from the top to the bottom, then K back to the top.
            for step in 1..<start.count {
                let order = TaskOrdering.nextUp(Array(tasks.values)).map(\.id)
                let (got, _) = try! Self.apply(.after(order[step]), to: moving, &tasks)
                var want = order
                want.swapAt(step - 1, step)
                #expect(got == want, "J step \(step), seed \(seed)")
            }
            for step in stride(from: start.count - 1, to: 0, by: -1) {
                let order = TaskOrdering.nextUp(Array(tasks.values)).map(\.id)
                let (got, _) = try! Self.apply(.before(order[step - 1]), to: moving, &tasks)
                var want = order
                want.swapAt(step - 1, step)
                #expect(got == want, "K step \(step), seed \(seed)")
            }
            #expect(TaskOrdering.nextUp(Array(tasks.values)).map(\.id).dropFirst() == start.dropFirst())
        }
    }

    @Test func withoutTiesOnlyTheTasksOwnKeyIsWritten() throws {
        var tasks: [TaskID: TaskItem] = [:]
        let keys = OrderKey.keys(count: 5, between: nil, nil)
        for key in keys {
            var t = TaskItem(id: TaskID.make())
            t.nextUpPosition = key
            tasks[t.id] = t
        }
        let order = TaskOrdering.nextUp(Array(tasks.values)).map(\.id)
        let (got, written) = try Self.apply(.after(order[3]), to: order[1], &tasks)
        #expect(got == [order[0], order[2], order[3], order[1], order[4]])
        #expect(written == 1)
        let (_, unchanged) = try Self.apply(.after(order[3]), to: order[1], &tasks)
        #expect(unchanged == 0, "already there: nothing to write")
    }

    @Test func tiedRunsAreReKeyedOnTheShorterSideOnly() throws {
        // Five tasks all keyed W; moving the last one up one place rewrites
        // itself and the one it passes, not the three above.
        var tasks: [TaskID: TaskItem] = [:]
        for _ in 0..<5 {
            var t = TaskItem(id: TaskID.make())
            t.nextUpPosition = "W"
            tasks[t.id] = t
        }
        let order = TaskOrdering.nextUp(Array(tasks.values)).map(\.id)
        let keys = try NextUpPlace.before(order[3]).keys(for: order[4], in: Array(tasks.values))
        #expect(Set(keys.map(\.0)) == [order[4], order[3]])
        #expect(keys.first?.0 == order[4], "the task's own key comes first")
    }

    @Test func refusalsAndUndoFallbacks() throws {
        var a = TaskItem(id: TaskID.make()); a.nextUpPosition = "V"
        var b = TaskItem(id: TaskID.make()); b.nextUpPosition = "W"
        var done = TaskItem(id: TaskID.make()); done.nextUpPosition = "X"; done.completedAt = 1
        let backlog = TaskItem(id: TaskID.make())
        let all = [a, b, done, backlog]
        #expect(throws: NextUpPlacementError.anchorNotInNextUp(done.id)) { try NextUpPlace.after(done.id).keys(for: a.id, in: all) }
        #expect(throws: NextUpPlacementError.anchorNotInNextUp(backlog.id)) { try NextUpPlace.before(backlog.id).keys(for: a.id, in: all) }
        #expect(throws: NextUpPlacementError.taskNotInNextUp(backlog.id)) { try NextUpPlace.after(a.id).keys(for: backlog.id, in: all) }
        #expect(throws: NextUpPlacementError.anchorIsTheTask) { try NextUpPlace.after(a.id).keys(for: a.id, in: all) }
        // `between` (undo) never fails: after `after`, else before `before`, else at the end —
        // and the end is past every key in use, done tasks' included.
        let front = try NextUpPlace.between(after: backlog.id, before: a.id).keys(for: backlog.id, in: all)
        #expect(front.count == 1 && front[0].1 < "V")
        let end = try NextUpPlace.between(after: nil, before: done.id).keys(for: backlog.id, in: all, lastKey: "X")
        #expect(end.count == 1 && end[0].1 > "X")
        let middle = try NextUpPlace.between(after: a.id, before: nil).keys(for: backlog.id, in: all)
        #expect(middle.count == 1 && middle[0].1 > "V" && middle[0].1 < "W")
    }
}
