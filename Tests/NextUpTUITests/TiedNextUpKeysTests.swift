import Foundation
import Testing
import NextUpCore
import NextUpStore
@testable import NextUpTUI

/// `J` and `K` in the runtime on a real store whose Next Up keys were tied by
/// two replicas: each press moves the task exactly one place, in the store and
/// on screen.
@Suite struct TiedNextUpKeysTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nextup-tied-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func jAndKMoveExactlyOnePlaceEveryTime() throws {
        let folder = Folder()
        let here = try TaskStore.open(StoreLocation(folder: folder.url.appendingPathComponent("here")))
        let there = try TaskStore.open(StoreLocation(folder: folder.url.appendingPathComponent("there")))
        for name in ["one", "two", "three", "four"] {
            var draft = try TaskDraft(title: "here \(name)"); draft.nextUp = true
            _ = try here.add(draft)
            draft.title = "there \(name)"
            _ = try there.add(draft)
        }
        // What a sync does with the other replica's changes.
        _ = try here.mergeRemote(try there.allTasks().flatMap(\.allChanges))
        let keys = try here.nextUp().map { $0.nextUpPosition! }
        #expect(Set(keys).count == 4 && keys.count == 8, "tied keys: \(keys)")
        // Seen: no "while you were away" takes the first key.
        try here.markSeen(try here.arrivals())

        let screen = FakeScreen(width: 100, height: 30)
        let rt = AppRuntime(state: AppState(), backend: StoreBackend(store: here), screen: screen, clock: FixedClock(millis: Fixture.now))
        rt.start()
        rt.handle(keys: [.tab])
        let moving = try #require(rt.state.selectedTask?.id)
        let count = rt.state.nextUp.ids.count
        /// Presses `key`; the task must swap places with the one at `other`.
        func press(_ key: Character, swapping other: Int, at place: Int) throws {
            var want = rt.state.nextUp.ids
            want.swapAt(other, place)
            rt.handle(keys: [.char(key)])
            #expect(rt.state.nextUp.ids == want, "\(key) at \(place)")
            #expect(try here.nextUp().map(\.id) == want, "\(key) at \(place), in the store")
            #expect(rt.state.selectedTask?.id == moving, "the selection follows the task")
        }
        for place in 0..<(count - 1) { try press("J", swapping: place + 1, at: place) }
        for place in stride(from: count - 1, to: 0, by: -1) { try press("K", swapping: place - 1, at: place) }
        // Undo of the last K puts the task back below its old neighbour.
        let beforeUndo = rt.state.nextUp.ids
        rt.handle(keys: [.char("z")])
        var want = beforeUndo
        want.swapAt(0, 1)
        #expect(try here.nextUp().map(\.id) == want)
    }
}
