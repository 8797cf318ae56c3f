import Foundation
import NextUpCore
import NextUpStore
import Synchronization
import NextUpTestSupport
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

    @Test func aPeersChangeIsAnnouncedAsSoonAsItIsMergedBeforeTheCycleEnds() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url), b = try StoreReplica(peer: peer.url)
        try a.engine.syncOnce()
        try b.engine.syncOnce()
        let events = EventLog()
        let seenAtMerge = Mutex<(stored: Bool, cycleRunning: Bool)?>(nil)
        let task = try a.store.add(TaskDraft(title: "Made on A"))
        let store = b.store, engine = b.engine
        engine.start(onEvent: { event in
            if event == .merged {
                let stored = (try? store.task(task.id)) != nil
                seenAtMerge.withLock { $0 = $0 ?? (stored, engine.status.isSyncing) }
            }
            events.append(event)
        })
        defer { b.engine.stop() }
        try a.engine.syncOnce()
        #expect(eventually(within: 30) { seenAtMerge.withLock { $0 } != nil })
        #expect(seenAtMerge.withLock { $0 }?.stored == true, "committed before it is announced")
        #expect(seenAtMerge.withLock { $0 }?.cycleRunning == true, "announced before the cycle ends")
        #expect(eventually { events.all.contains(.syncFinished(changedStore: true)) })
        let all = events.all
        let firstMerged = try #require(all.firstIndex(of: .merged))
        let lastFinished = try #require(all.lastIndex(of: .syncFinished(changedStore: true)))
        #expect(firstMerged < lastFinished)
    }

    @Test func anIdleEngineDoesNotWakeItselfUp() throws {
        let peer = try TemporaryFolder("peer")
        let time = ManualMonotonicClock()
        // Every cycle reads the wall clock, which moves on each read: a cycle
        // that ran shows as a new lastSuccessMillis.
        let a = try StoreReplica(peer: peer.url, clock: CountingClock(), options: SyncOptions(pollIntervalMillis: 200), watchClock: time)
        let b = try StoreReplica(peer: peer.url)
        _ = try b.store.add(TaskDraft(title: "from B"))
        try b.engine.syncOnce()
        let calls = CallCounter()
        a.engine.start(onChange: { calls.increment() })
        defer { a.engine.stop() }
        // The first cycle, then those its own writes cause (the store's -wal,
        // its log in the peer folder seen by the poll), run out.
        for _ in 0..<10 {
            time.advance(200, driving: a.engine)
        }
        #expect(try a.store.taskCount() == 1)
        let settled = a.engine.status.lastSuccessMillis
        #expect(settled != nil)
        let settledCalls = calls.value
        // Idle through many quiet periods and poll ticks.
        for _ in 0..<20 {
            time.advance(200, driving: a.engine)
        }
        #expect(a.engine.status.lastSuccessMillis == settled)
        #expect(calls.value == settledCalls)
        // …and still awake: a commit is synced.
        _ = try a.store.add(TaskDraft(title: "from A"))
        time.advance(200, driving: a.engine)
        #expect(a.engine.status.lastSuccessMillis != settled)
        #expect(a.engine.status.pendingLocalChanges == 0)
    }

    @Test func requestSyncRunsACycle() throws {
        let peer = try TemporaryFolder("peer")
        let time = ManualMonotonicClock()
        let a = try StoreReplica(peer: peer.url, clock: CountingClock(), watchClock: time)
        a.engine.start(onChange: {})
        defer { a.engine.stop() }
        // The first cycle, and those its own writes cause, run out.
        for _ in 0..<5 { time.advance(1_000, driving: a.engine) }
        let first = try #require(a.engine.status.lastSuccessMillis)
        time.advance(5_000, driving: a.engine)
        #expect(a.engine.status.lastSuccessMillis == first, "settled")
        a.engine.requestSync()
        time.advance(150, driving: a.engine)
        #expect(a.engine.status.lastSuccessMillis.map { $0 > first } == true)
    }

    @Test func storeEventsKeepComingWhileACycleRuns() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url)
        // Another process's cycle holds the lock: ours waits inside its cycle.
        let holder = try StoreLock(folder: a.store.location.folder, name: SyncEngine.lockFileName)
        try holder.lockExclusive()
        let events = EventLog()
        a.engine.start(onEvent: { events.append($0) })
        defer { a.engine.stop() }
        #expect(eventually { a.engine.status.isSyncing })
        _ = try TaskStore.open(a.store.location).add(TaskDraft(title: "committed during a cycle"))
        #expect(eventually { events.all.contains(.storeFolderChanged) })
        #expect(a.engine.status.isSyncing, "the cycle is still waiting")
        holder.unlock()
        #expect(eventually { a.engine.status.pendingLocalChanges == 0 && !a.engine.status.isSyncing })
    }

    @Test func aWatcherFailureShowsInTheStatusAndTheWatchIsRestarted() throws {
        let peer = try TemporaryFolder("peer")
        let time = ManualMonotonicClock()
        let system = FlakyWatchSystem()
        let a = try StoreReplica(peer: peer.url, watchClock: time, watchSystem: system)
        let events = EventLog()
        a.engine.start(onEvent: { events.append($0) })
        defer { a.engine.stop() }
        time.advance(150, driving: a.engine)
        #expect(a.engine.status.lastSuccessMillis != nil)
        system.failPolls(1)
        a.engine.clockMoved()
        a.engine.clockMoved()
        #expect(a.engine.status.watchProblem?.contains("watching for changes failed") == true)
        #expect(events.all.contains(.statusChanged))
        // Restarted: after the catch-up signal the problem is gone, and a
        // commit is noticed through the new watch.
        time.advance(150, driving: a.engine)
        #expect(a.engine.status.watchProblem == nil)
        let before = events.all.count
        _ = try a.store.add(TaskDraft(title: "after the restart"))
        time.advance(150, driving: a.engine)
        #expect(events.all.dropFirst(before).contains(.storeFolderChanged))
        #expect(a.engine.status.pendingLocalChanges == 0)
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
        #expect(!a.engine.isRunning, "stop returns once the watcher thread has ended")
        let last = a.engine.status.lastSuccessMillis
        _ = try a.store.add(TaskDraft(title: "after stop"))
        a.engine.requestSync()
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

/// A thread-safe record of an engine's events.
final class EventLog: Sendable {
    private let events = Mutex<[SyncEngine.Event]>([])
    var all: [SyncEngine.Event] { events.withLock { $0 } }
    func append(_ event: SyncEngine.Event) { events.withLock { $0.append(event) } }
}
