import Foundation
import NextUpCore
import NextUpStore
import NextUpTestSupport
import Synchronization
import Testing
@testable import NextUpTUI

/// The TUI has no watcher of its own when it syncs: the engine's watcher
/// (the process's only one on the store folder) posts "store changed" to it.
@Suite struct EngineSyncTests {
    final class Posted: Sendable {
        let events = Mutex<[LoopEvent]>([])
        var all: [LoopEvent] { events.withLock { $0 } }
    }

    @Test func anotherConnectionsCommitReachesTheLoopAsStoreChangedAndASyncFollows() throws {
        let temp = TemporaryFolder()
        let peer = temp.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let location = StoreLocation(folder: temp.path("store"))
        let store = try TaskStore.open(location)
        let sync = EngineSync(store: store, peerFolder: peer)
        let posted = Posted()
        try sync.start(post: { event in posted.events.withLock { $0.append(event) } })
        defer { sync.stop() }
        #expect(eventually { sync.display().lastSuccessMillis != nil })
        let before = posted.all.count
        // A commit on another connection, as another process's would be.
        let other = try TaskStore.open(location)
        _ = try other.add(TaskDraft(title: "From another shell"))
        #expect(eventually { posted.all.dropFirst(before).contains(.storeChanged) })
        #expect(eventually { posted.all.dropFirst(before).contains(.syncFinished(changedStore: true)) }, "the upload is a change")
        #expect(eventually { sync.display().pendingLocalChanges == 0 })
    }
}
