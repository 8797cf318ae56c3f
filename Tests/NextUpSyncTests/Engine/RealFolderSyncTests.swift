import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpSync

/// Recovery and odd files over real SQLite stores and a real folder (the
/// fakes cover the same ground in ``SyncCycleTests``; this proves the real
/// file operations: truncation, rename aside, rewrite).
@Suite struct RealFolderSyncTests {
    @Test func aLogTruncatedInsideItsLastLineIsSkippedThenRepairedByItsWriter() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url), b = try StoreReplica(peer: peer.url)
        _ = try a.store.add(TaskDraft(title: "first"))
        try a.engine.syncOnce()
        let second = try a.store.add(TaskDraft(title: "second"))
        try a.engine.syncOnce()
        // Cut A's log inside its last line, as a crash mid-write would.
        let log = peer.url.appendingPathComponent(LogFormat.fileName(for: try a.store.replicaID()))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: log)
        try handle.truncate(atOffset: UInt64(size - 10))
        try handle.close()
        let read = try b.engine.syncOnce()
        #expect(read.issues.contains { if case .incompleteLastLine = $0.kind { true } else { false } })
        #expect(try b.store.task(second.id) == nil)
        #expect(try b.store.taskCount() == 1)
        // A notices its log is not what it wrote, reads it, and rewrites it.
        let repair = try a.engine.syncOnce()
        #expect(repair.ownLogRewritten == .replaced)
        let after = try b.engine.syncOnce()
        #expect(try b.store.task(second.id)?.title == "second")
        #expect(after.issues.isEmpty, "\(after.issues)")
    }

    @Test func aConflictCopyIsMergedAndRenamedAside() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url), c = try StoreReplica(peer: peer.url)
        _ = try a.store.add(TaskDraft(title: "in the log"))
        try a.engine.syncOnce()
        let aID = try a.store.replicaID()
        let log = peer.url.appendingPathComponent(LogFormat.fileName(for: aID))
        var copy = try Data(contentsOf: log)
        let only = TaskID.make()
        copy += Data(LogRecord(task: only, changes: [
            FieldChange(task: only, field: .title, value: .string("only in the copy"), version: Version(timestamp: HybridTimestamp(millis: 7), replica: aID)),
            FieldChange(task: only, field: .created, value: .int(7), version: Version(timestamp: HybridTimestamp(millis: 7), replica: aID)),
        ]).encodedLine(owner: aID))
        let conflict = "nextup-\(aID).sync-conflict-20261122-030405-XYZ1234.log"
        try copy.write(to: peer.url.appendingPathComponent(conflict))
        let report = try c.engine.syncOnce()
        #expect(report.conflictCopiesMerged == [conflict])
        #expect(try c.store.task(only)?.title == "only in the copy")
        let names = try FileManager.default.contentsOfDirectory(atPath: peer.url.path)
        #expect(names.contains(conflict + PeerFileName.mergedSuffix) && !names.contains(conflict))
        let late = try StoreReplica(peer: peer.url)
        try late.engine.syncOnce()
        #expect(try late.store.task(only)?.title == "only in the copy")
    }

    @Test func aDeletedOwnLogIsRewrittenAndPeersReadItAgain() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url), b = try StoreReplica(peer: peer.url)
        let task = try a.store.add(TaskDraft(title: "survives"))
        try a.engine.syncOnce(); try b.engine.syncOnce()
        try FileManager.default.removeItem(at: peer.url.appendingPathComponent(LogFormat.fileName(for: try a.store.replicaID())))
        #expect(try a.engine.syncOnce().ownLogRewritten == .missing)
        _ = try a.store.edit(task.id, set: [(.importance, .int(3))])
        try a.engine.syncOnce()
        let report = try b.engine.syncOnce()
        #expect(report.fullReads.values.contains("its writer started a new generation"))
        #expect(try b.store.task(task.id)?.importance == .high)
    }
}

@Suite struct QuietSyncTests {
    /// The store's files, byte for byte and by modification time.
    private func snapshot(_ folder: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix("nextup.sqlite") && !name.hasSuffix("-shm") {
            let path = folder.appendingPathComponent(name)
            let attributes = try FileManager.default.attributesOfItem(atPath: path.path)
            out[name] = "\(attributes[.size] ?? 0) \(attributes[.modificationDate] ?? 0) \(try Data(contentsOf: path).hashValue)"
        }
        return out
    }

    @Test func aSyncWithNothingNewWritesNothingToTheStoreEvenInFull() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url), b = try StoreReplica(peer: peer.url)
        for n in 0..<5 { _ = try a.store.add(TaskDraft(title: "a\(n)")) }
        _ = try b.store.add(TaskDraft(title: "b"))
        try a.engine.syncOnce(); try b.engine.syncOnce(); try a.engine.syncOnce(); try b.engine.syncOnce()
        let before = try snapshot(b.folder.url)
        let peerBefore = try FileManager.default.contentsOfDirectory(atPath: peer.url.path).sorted().map { try Data(contentsOf: peer.url.appendingPathComponent($0)) }
        let quiet = try b.engine.syncOnce()
        let full = try b.engine.syncOnce(full: true)
        #expect(quiet.merged == 0 && full.merged == 0 && quiet.bytesWritten == 0 && full.bytesWritten == 0)
        #expect(try snapshot(b.folder.url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: peer.url.path).sorted().map { try Data(contentsOf: peer.url.appendingPathComponent($0)) } == peerBefore)
    }
}
