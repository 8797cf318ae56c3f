import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpSync

/// A one-shot sync merges a log read from its start in one store transaction
/// (``SyncOptions/wholeLogInOneTransaction``); into an empty store the task
/// table's indexes are dropped and built again. The outcome must be the
/// batch-by-batch one's, and the cursors must stand where they would.
@Suite struct FirstSyncAtOnceTests {
    static func options(atOnce: Bool) -> SyncOptions {
        var options = SyncOptions(mergeBatch: 4)
        options.wholeLogInOneTransaction = atOnce
        return options
    }

    @Test func aFirstSyncAtOnceEqualsOneBatchByBatchThenSyncsOnAsUsual() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url)
        var ids: [TaskID] = []
        for n in 0..<30 {
            var draft = try TaskDraft(title: "Task \(n)")
            draft.nextUp = n % 4 == 0
            ids.append(try a.store.add(draft).id)
        }
        _ = try a.store.edit(ids[3], set: [(.urgency, .string("urgent"))])
        try a.engine.syncOnce()

        // The batch-by-batch replica reads a copy of the folder (its own log stays out of the other's way).
        let copy = try TemporaryFolder("peer-copy")
        for name in try FileManager.default.contentsOfDirectory(atPath: peer.url.path) {
            try FileManager.default.copyItem(at: peer.url.appendingPathComponent(name), to: copy.url.appendingPathComponent(name))
        }
        let once = try StoreReplica(peer: peer.url, options: Self.options(atOnce: true))
        let batched = try StoreReplica(peer: copy.url, options: Self.options(atOnce: false))
        let first = try once.engine.syncOnce()
        _ = try batched.engine.syncOnce()
        #expect(first.merged > 0 && first.issues.isEmpty)
        #expect(try once.tasks() == a.tasks())
        #expect(try once.tasks() == batched.tasks())
        // The cursor of A's log stands at its end, as the batch-by-batch one's (the copy's inode aside).
        let log = LogFormat.fileName(for: try a.store.replicaID())
        let cursor = try #require(try TaskStoreSyncStorage(store: once.store).cursors()[log])
        var other = try #require(try TaskStoreSyncStorage(store: batched.store).cursors()[log])
        other.identity = cursor.identity
        other.seen = cursor.seen
        #expect(cursor == other)
        #expect(try cursor.offset == #require(try FileManager.default.attributesOfItem(atPath: peer.url.appendingPathComponent(log).path)[.size] as? Int64))
        // (The indexes built again: StoreMergeAtOnceTests.)
        #expect(try once.store.openCount() == a.store.openCount())
        #expect(try once.store.nextUp().map(\.id) == a.store.nextUp().map(\.id))

        // Nothing new: nothing read, merged, written or uploaded.
        let mark = try once.store.writeMark()
        let quiet = try once.engine.syncOnce()
        #expect(quiet.merged == 0 && quiet.uploaded == 0 && quiet.bytesWritten == 0 && quiet.fullReads.isEmpty)
        #expect(try once.store.writeMark() == mark)

        // An edit on A reaches it, read from its cursor.
        _ = try a.store.edit(ids[7], set: [(.title, .string("edited on A"))])
        try a.engine.syncOnce()
        let next = try once.engine.syncOnce()
        #expect(next.merged == 1 && next.fullReads.isEmpty)
        #expect(try once.store.task(ids[7])?.title == "edited on A")
        // And its own edit reaches A.
        _ = try once.store.edit(ids[8], set: [(.title, .string("edited on B"))])
        try once.engine.syncOnce()
        try a.engine.syncOnce()
        #expect(try a.store.task(ids[8])?.title == "edited on B")
    }
}
