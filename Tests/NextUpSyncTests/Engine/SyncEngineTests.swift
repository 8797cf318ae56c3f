import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpSync

/// The engine over real stores and real folders: background sync, status,
/// the cross-process lock, and publishing after a command.
@Suite struct SyncEngineTests {
    @Test func backgroundSyncCarriesACommitFromOneStoreToAnother() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url), b = try StoreReplica(peer: peer.url)
        let changesOnB = CallCounter()
        a.engine.start(onChange: {})
        b.engine.start(onChange: { changesOnB.increment() })
        defer { a.engine.stop(); b.engine.stop() }
        // A commit to A's store (the watcher sees it on the -wal file, as it
        // would another process's).
        let writer = a.store
        var draft = try TaskDraft(title: "Made elsewhere")
        draft.category = "Admin"
        let task = try writer.add(draft)
        #expect(eventually(within: 30) { (try? b.store.task(task.id))?.category == "Admin" })
        #expect(eventually { changesOnB.value >= 1 })
        #expect(eventually { b.engine.status.peersSeen == 1 && b.engine.status.lastSuccessMillis != nil })
        #expect(eventually { a.engine.status.pendingLocalChanges == 0 })
        #expect(b.engine.status.lastError == nil)
    }

    @Test func anIdleEngineDoesNotWakeItselfUp() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url, options: SyncOptions(pollIntervalMillis: 200))
        let b = try StoreReplica(peer: peer.url)
        _ = try b.store.add(TaskDraft(title: "from B"))
        try b.engine.syncOnce()
        let calls = CallCounter()
        a.engine.start(onChange: { calls.increment() })
        defer { a.engine.stop() }
        #expect(eventually { (try? a.store.taskCount()) == 1 })
        // Let the cycles its own writes cause run out (the poll sees them
        // once), then watch it idle through several polls.
        usleep(1_000_000)
        let settled = a.engine.status.lastSuccessMillis
        let settledCalls = calls.value
        usleep(1_200_000)
        #expect(a.engine.status.lastSuccessMillis == settled)
        #expect(calls.value == settledCalls)
    }

    @Test func requestSyncRunsACycle() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url)
        a.engine.start(onChange: {})
        defer { a.engine.stop() }
        #expect(eventually { a.engine.status.lastSuccessMillis != nil })
        let first = a.engine.status.lastSuccessMillis
        usleep(5_000)
        a.engine.requestSync()
        #expect(eventually { a.engine.status.lastSuccessMillis != first })
    }

    @Test func aMissingPeerFolderShowsInTheStatusAndSyncResumesWhenItAppears() throws {
        let temp = try TemporaryFolder("peer")
        let peer = temp.path("share")
        let a = try StoreReplica(peer: peer)
        let calls = CallCounter()
        a.engine.start(onChange: { calls.increment() })
        defer { a.engine.stop() }
        #expect(eventually { a.engine.status.lastError?.contains("does not exist") == true })
        #expect(eventually { calls.value >= 1 })
        #expect(!FileManager.default.fileExists(atPath: peer.path), "the engine never creates the peer folder")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: false)
        a.engine.requestSync()
        #expect(eventually(within: 30) { a.engine.status.lastError == nil && a.engine.status.lastSuccessMillis != nil })
        #expect(eventually { FileManager.default.fileExists(atPath: peer.appendingPathComponent(LogFormat.fileName(for: try! a.store.replicaID())).path) })
    }

    @Test func syncOnceWaitsForTheStoreLockAndGivesUpWithAClearError() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url)
        let holder = try StoreLock(folder: a.store.location.folder, name: SyncEngine.lockFileName)
        try holder.lockExclusive()
        #expect(throws: SyncError.self) { try a.engine.syncOnce(lockTimeout: 0.2) }
        #expect(a.engine.status.lastError?.contains("another nextup process is syncing") == true)
        holder.unlock()
        try a.engine.syncOnce(lockTimeout: 5)
        #expect(a.engine.status.lastError == nil)
    }

    @Test func stopEndsTheBackgroundSync() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url)
        let calls = CallCounter()
        a.engine.start(onChange: { calls.increment() })
        #expect(eventually { a.engine.status.lastSuccessMillis != nil })
        a.engine.stop()
        let last = a.engine.status.lastSuccessMillis
        _ = try a.store.add(TaskDraft(title: "after stop"))
        a.engine.requestSync()
        usleep(800_000)
        #expect(a.engine.status.lastSuccessMillis == last)
        #expect(try a.engine.cycle.storage.pendingLocalChangeCount() == 1)
    }

    @Test func publishingAfterACommandAppendsTheChangeOrWarns() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url)
        let task = try a.store.add(TaskDraft(title: "Publish me"))
        #expect(PeerPublisher.publish(store: a.store, peerFolder: peer.url) == nil)
        #expect(try a.store.outboxCount(after: 0) == 0)
        let b = try StoreReplica(peer: peer.url)
        try b.engine.syncOnce()
        #expect(try b.store.task(task.id)?.title == "Publish me")
        // No peer folder: a warning, and the change stays safe and pending.
        _ = try a.store.edit(task.id, set: [(.urgency, .string("urgent"))])
        let warning = PeerPublisher.publish(store: a.store, peerFolder: peer.path("gone"))
        #expect(warning?.hasPrefix("warning: ") == true)
        #expect(warning?.contains("does not exist") == true)
        #expect(try a.store.outboxCount(after: 0) == 1)
    }

    @Test func twoEnginesOnOneStoreNeverRunACycleAtOnce() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url)
        // Two engines with their own lock file descriptors: flock excludes
        // them as it would two processes.
        let second = SyncEngine(store: a.store, peerFolder: peer.url)
        for n in 0..<50 { _ = try a.store.add(TaskDraft(title: "t\(n)")) }
        let errors = CallCounter()
        let first = a.engine
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            do { try (i % 2 == 0 ? first : second).syncOnce() } catch { errors.increment() }
        }
        #expect(errors.value == 0)
        // One log, one generation, every task once: no interleaved writers.
        let files = try LocalPeerFolder(url: peer.url).list().map(\.name)
        #expect(files.filter { $0.hasSuffix(".log") }.count == 1, "\(files)")
        #expect(files.count == 2 && files.contains(PeerFolderMarker.fileName), "\(files)")
        let fresh = try StoreReplica(peer: peer.url)
        let report = try fresh.engine.syncOnce()
        #expect(report.issues.isEmpty)
        #expect(try fresh.store.taskCount() == 50)
    }
}
