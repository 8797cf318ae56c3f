import Foundation
import NextUpCore
import NextUpStore
import Synchronization
import Testing
@testable import NextUpSync

/// Large downloads are merged in short transactions, each advancing the
/// cursor past exactly what it merged — so a failure midway loses nothing and
/// the next cycle resumes where the last good transaction ended.
@Suite struct MergeBatchTests {
    @Test func aLargeDownloadIsMergedInShortTransactionsThatEachAdvanceTheCursor() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder)
        for n in 0..<35 { _ = a.add("Task \(n)") }
        try a.sync()
        let recorder = RecordingStorage(InMemorySyncStorage())
        let cycle = SyncCycle(storage: recorder, folder: folder, options: SyncOptions(mergeBatch: 10))
        _ = try cycle.run()
        let offsets = recorder.cursorOffsets
        #expect(offsets.count == 4)
        #expect(offsets == offsets.sorted() && Set(offsets).count == 4)
        let logSize = try #require(try folder.info(LogFormat.fileName(for: try a.storage.replicaID()))).size
        #expect(offsets.last == logSize)
        #expect(recorder.inner.tasks == a.storage.tasks)
    }

    @Test func aFailureMidwayLosesNothingAndTheNextCycleResumes() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder)
        for n in 0..<35 { _ = a.add("Task \(n)") }
        try a.sync()
        let recorder = RecordingStorage(InMemorySyncStorage(), failOnMerge: 3)
        let cycle = SyncCycle(storage: recorder, folder: folder, options: SyncOptions(mergeBatch: 10))
        #expect(throws: RecordingStorage.Failure.self) { try cycle.run() }
        #expect(recorder.inner.tasks.count == 20)
        let resumed = try cycle.run()
        #expect(resumed.merged == 15 * 2, "only the unmerged records are read again")
        #expect(recorder.inner.tasks == a.storage.tasks)
    }
}

/// Wraps a storage, recording the cursor offsets merges store and failing
/// the n-th merge on request.
final class RecordingStorage: SyncStorage {
    struct Failure: Error {}
    let inner: InMemorySyncStorage
    private let state: Mutex<(offsets: [Int64], merges: Int)> = Mutex(([], 0))
    private let failOnMerge: Int?

    init(_ inner: InMemorySyncStorage, failOnMerge: Int? = nil) {
        self.inner = inner
        self.failOnMerge = failOnMerge
    }

    var cursorOffsets: [Int64] { state.withLock { $0.offsets } }

    func replicaID() throws -> ReplicaID { try inner.replicaID() }
    func pendingLocalChanges(limit: Int) throws -> PendingLocalChanges { try inner.pendingLocalChanges(limit: limit) }
    func pendingLocalChangeCount() throws -> Int { try inner.pendingLocalChangeCount() }
    func newestLocalChangeSeq() throws -> Int64 { try inner.newestLocalChangeSeq() }
    func recordUpload(through seq: Int64, ownLog: OwnLogState) throws { try inner.recordUpload(through: seq, ownLog: ownLog) }
    func saveOwnLogState(_ ownLog: OwnLogState) throws { try inner.saveOwnLogState(ownLog) }
    func saveCursor(_ cursor: PeerCursor, forPeerFile file: String) throws {
        state.withLock { $0.offsets.append(cursor.offset) }
        try inner.saveCursor(cursor, forPeerFile: file)
    }
    func ownLogState() throws -> OwnLogState? { try inner.ownLogState() }
    func cursors() throws -> [String: PeerCursor] { try inner.cursors() }
    func forEachTaskBatch(_ body: ([TaskItem]) throws -> Void) throws { try inner.forEachTaskBatch(body) }
    func versions(of tasks: [TaskID]) throws -> [TaskID: [TaskField: Version]] { try inner.versions(of: tasks) }
    func adoptNewReplicaID() throws -> ReplicaID { try inner.adoptNewReplicaID() }
    func peerFolderID() throws -> String? { try inner.peerFolderID() }
    func rememberPeerFolder(id: String) throws { try inner.rememberPeerFolder(id: id) }

    func merge(_ changes: [FieldChange], cursor: (file: String, cursor: PeerCursor)?) throws -> TaskStore.RemoteMergeResult {
        let count = state.withLock { s -> Int in
            s.merges += 1
            return s.merges
        }
        if count == failOnMerge { throw Failure() }
        if let cursor { state.withLock { $0.offsets.append(cursor.cursor.offset) } }
        return try inner.merge(changes, cursor: cursor)
    }
}
