import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// `TaskStore.placeInNextUp`: the one Next Up placement intent, on keys tied
/// by two replicas that each put tasks in Next Up while apart.
@Suite struct NextUpPlacementTests {
    let tmp = TemporaryFolder()

    /// A store holding three Next Up tasks made here and three made on
    /// another replica, merged in: both made the keys V, W, X, so the list is
    /// three pairs of tied keys.
    func tiedStore() throws -> TaskStore {
        let here = try TaskStore.open(StoreLocation(folder: tmp.path("here")))
        let there = try TaskStore.open(StoreLocation(folder: tmp.path("there")))
        for name in ["one", "two", "three"] {
            var draft = try TaskDraft(title: "here \(name)"); draft.nextUp = true
            _ = try here.add(draft)
            draft.title = "there \(name)"
            _ = try there.add(draft)
        }
        _ = try here.mergeRemote(try there.allTasks().flatMap(\.allChanges))
        let keys = try here.nextUp().map { $0.nextUpPosition! }
        #expect(keys.count == 6 && Set(keys).count == 3, "the replicas made the same keys: \(keys)")
        return here
    }

    @Test func jAndKMoveExactlyOnePlaceEveryTimeOnTiedKeys() throws {
        let store = try tiedStore()
        let start = try store.nextUp().map(\.id)
        for moving in start {
            // Down to the bottom one place at a time (J), then back up (K).
            var order = try store.nextUp().map(\.id)
            while let i = order.firstIndex(of: moving), i + 1 < order.count {
                let result = try store.placeInNextUp(moving, .after(order[i + 1]))
                #expect(result.isChange)
                var want = order; want.swapAt(i, i + 1)
                order = try store.nextUp().map(\.id)
                #expect(order == want)
            }
            while let i = order.firstIndex(of: moving), i > 0 {
                _ = try store.placeInNextUp(moving, .before(order[i - 1]))
                var want = order; want.swapAt(i - 1, i)
                order = try store.nextUp().map(\.id)
                #expect(order == want)
            }
        }
    }

    @Test func aPlacementIsOneTransactionAndRefusesWhatIsNotInNextUp() throws {
        let store = try tiedStore()
        let order = try store.nextUp().map(\.id)
        let outbox = try store.outboxCount(after: 0)
        let backlog = try store.add(TaskDraft(title: "in the backlog"))
        let done = order[5]
        _ = try store.complete(done)
        let before = try store.nextUp().map(\.id)
        func refused(_ id: TaskID, _ place: NextUpPlace, _ words: String) {
            #expect { try store.edit(id, set: [(.title, .string("changed"))], place: place) } throws: { error in
                "\(error)".contains(words)
            }
        }
        refused(order[0], .after(backlog.id), "“in the backlog” is in the Backlog, not in Next Up")
        refused(order[0], .before(done), "is done, not in Next Up")
        refused(backlog.id, .after(order[0]), "“in the backlog” is in the Backlog")
        refused(order[0], .after(order[0]), "before or after itself")
        #expect(try store.nextUp().map(\.id) == before)
        #expect(try store.task(order[0])?.title != "changed", "a refused placement changes no field either")
        #expect(try store.outboxCount(after: 0) == outbox + 2, "only the add and the completion were written")
    }
}
