import Foundation
import NextUpCore
import NextUpStore
import NextUpTestSupport
import Synchronization
import Testing
@testable import NextUpSync

/// Two replicas that first sync a brand-new folder at the same moment both
/// find no marker. Exactly one marker must be made and both must remember it;
/// it used to be that each wrote its own, the later replaced the first, and
/// the first replica was refused ("looks unmounted or replaced") from then on.
@Suite struct FirstSyncRaceTests {
    /// A real folder that runs `interleave` once, just before the first write
    /// of the folder's marker: the other replica's cycle slips in there.
    final class InterleavingFolder: ForwardingPeerFolder, @unchecked Sendable {
        var interleave: (() -> Void)?
        init(_ url: URL) { super.init(LocalPeerFolder(url: url)) }
        private func beforeWriting(_ name: String) {
            guard name == PeerFolderMarker.fileName, let run = interleave else { return }
            interleave = nil
            run()
        }
        override func replace(_ name: String, writing produce: (([UInt8]) throws -> Void) throws -> Void) throws -> Int64 {
            beforeWriting(name)
            return try inner.replace(name, writing: produce)
        }
        override func create(_ name: String, bytes: [UInt8]) throws -> Bool {
            beforeWriting(name)
            return try inner.create(name, bytes: bytes)
        }
    }

    @Test func twoReplicasStartingOnANewFolderAtOnceAgreeOnItsMarker() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url), b = try StoreReplica(peer: peer.url)
        _ = try a.store.add(TaskDraft(title: "from a"))
        _ = try b.store.add(TaskDraft(title: "from b"))
        let folder = InterleavingFolder(peer.url)
        let aCycle = SyncCycle(storage: TaskStoreSyncStorage(store: a.store), folder: folder)
        // A decides the folder is new and is about to write its marker; B's
        // whole first cycle happens in between.
        let bFirst = Mutex<String?>(nil)
        folder.interleave = { do { _ = try b.cycle.run() } catch { bFirst.withLock { $0 = "\(error)" } } }
        _ = try aCycle.run()
        #expect(bFirst.withLock { $0 } == nil)
        #expect(try a.store.rememberedPeerFolderID() != nil)
        #expect(try a.store.rememberedPeerFolderID() == b.store.rememberedPeerFolderID())
        // Neither is refused afterwards, and each sees the other's task.
        _ = try b.cycle.run()
        _ = try aCycle.run()
        #expect(try a.store.allTasks().count == 2)
        #expect(try b.store.allTasks().count == 2)
    }
}
