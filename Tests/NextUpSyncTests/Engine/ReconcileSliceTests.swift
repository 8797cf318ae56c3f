import Foundation
import NextUpCore
import NextUpStore
import Synchronization
import Testing
@testable import NextUpSync

/// The start-up reconcile in slices (``SyncCycle/reconcileSlice(_:merged:)``): it
/// ends where one full cycle ends, and a peer's change that arrives while it
/// runs is merged before it ends.
@Suite struct ReconcileSliceTests {
    func logName(_ replica: FakeReplica) throws -> String { LogFormat.fileName(for: try replica.storage.replicaID()) }

    /// A new folder holding `folder`'s files, put in name order (so every
    /// copy gives the files the same identities).
    func copy(_ folder: InMemoryPeerFolder) throws -> InMemoryPeerFolder {
        let copy = InMemoryPeerFolder()
        for info in try folder.list().sorted(by: { $0.name < $1.name }) {
            copy.put(info.name, try #require(folder.contents(of: info.name)))
        }
        return copy
    }

    func replica(_ backup: InMemorySyncStorage.Backup, on folder: InMemoryPeerFolder, options: SyncOptions = SyncOptions()) -> FakeReplica {
        let replica = FakeReplica(folder: folder, options: options)
        replica.storage.restore(backup)
        return replica
    }

    @Test func aSlicedReconcileEndsWhereAFullCycleEnds() throws {
        let origin = InMemoryPeerFolder()
        let a = FakeReplica(folder: origin), b = FakeReplica(folder: origin), c = FakeReplica(folder: origin)
        let ids = (0..<12).map { a.add("task number \($0) from a") }
        for n in 0..<4 { _ = c.add("task number \(n) from c") }
        try a.sync(); try c.sync(); try b.sync()
        b.set(ids[0], [(.notes, .string("b was here"))])
        try b.sync()
        // A line in the middle of A's log damaged in place: B holds its
        // change, the log no longer does; only a full read sees it.
        let aLog = try logName(a)
        let bytes = try #require(origin.contents(of: aLog))
        // The line of task 1 (task 5 is edited later, which would make its
        // title C's, no longer held under A's id).
        let title = Array("\"task number 1 from a\"".utf8)
        let at = try #require((0...(bytes.count - title.count)).first { Array(bytes[$0..<($0 + title.count)]) == title })
        origin.overwrite(aLog, at: at + 1, with: Array("XXXX".utf8))
        #expect(try b.sync().merged == 0, "an incremental cycle sees nothing")
        let bState = b.storage.backup(), cState = c.storage.backup()

        // The same start twice: one full cycle, or slices of 3 records; C
        // edits a task between the second and third slice (after the full cycle).
        func run(sliced: Bool) throws -> (report: SyncReport, b: FakeReplica, folder: InMemoryPeerFolder, slices: Int) {
            let folder = try copy(origin)
            let b = replica(bState, on: folder, options: SyncOptions(reconcileSliceRecords: 3))
            let c = replica(cState, on: folder)
            guard sliced else {
                let report = try b.sync(full: true)
                c.set(ids[5], [(.title, .string("renamed by c"))])
                try c.sync(); try b.sync()
                return (report, b, folder, 1)
            }
            var progress = ReconcileProgress()
            var whole: SyncReport?
            repeat {
                whole = try b.cycle.reconcileSlice(&progress)
                if progress.slices == 2 {
                    #expect(whole == nil)
                    c.set(ids[5], [(.title, .string("renamed by c"))])
                    try c.sync()
                    let between = try b.cycle.run(alongside: &progress)
                    #expect(between.changedTasks == [ids[5]], "the new line is merged before the reconcile ends")
                    #expect(b.storage.task(ids[5])?.title == "renamed by c")
                }
            } while whole == nil
            #expect(progress.isFinished)
            return (try #require(whole), b, folder, progress.slices)
        }
        let full = try run(sliced: false), sliced = try run(sliced: true)

        #expect(sliced.slices > 5, "16 tasks' lines and B's own log, 3 records a slice")
        #expect(full.report.republished == [aLog: 2], "the damaged line's title and created: \(full.report.lines)")
        #expect(sliced.report.republished == full.report.republished, "\(sliced.report.lines)")
        #expect(Set(sliced.report.issues.map(\.description)) == Set(full.report.issues.map(\.description)))
        #expect(sliced.report.issues.contains { $0.kind == .checksumMismatch })
        #expect(Set(sliced.report.fullReads.keys) == Set(full.report.fullReads.keys))
        #expect(sliced.b.storage.tasks == full.b.storage.tasks)
        #expect(sliced.b.storage.task(ids[5])?.title == "renamed by c")
        // The damage flag of A's cursor is set, as the full read set it.
        #expect(try sliced.b.storage.cursors() == full.b.storage.cursors())
        #expect(try sliced.b.storage.cursors()[aLog]?.damaged == true)
        // What B's log carries: a replica reading either folder from scratch
        // ends with B's tasks (the damaged line's change re-published).
        for outcome in [full, sliced] {
            let fresh = FakeReplica(folder: outcome.folder)
            try fresh.sync()
            #expect(fresh.storage.tasks == outcome.b.storage.tasks)
        }
    }

    @Test func aLogTheFirstCycleReadFromItsStartIsNotReadAgainBySlices() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), c = FakeReplica(folder: folder)
        let b = FakeReplica(folder: folder, options: SyncOptions(reconcileSliceRecords: 3))
        // B has merged C's log before (it holds a cursor for it); A's log is new to B.
        for n in 0..<4 { _ = c.add("task number \(n) from c") }
        try c.sync(); try b.sync()
        for n in 0..<12 { _ = a.add("task number \(n) from a") }
        try a.sync()
        // One line of A's log damaged: what the first cycle found there is the reconcile's finding too.
        let aLog = try logName(a)
        let bytes = try #require(folder.contents(of: aLog))
        let title = Array("\"task number 1 from a\"".utf8)
        let at = try #require((0...(bytes.count - title.count)).first { Array(bytes[$0..<($0 + title.count)]) == title })
        folder.overwrite(aLog, at: at + 1, with: Array("XXXX".utf8))
        // What the engine does at start: a first cycle alongside a fresh reconcile.
        var progress = ReconcileProgress()
        let first = try b.cycle.run(alongside: &progress)
        #expect(first.changedTasks.count == 11)
        var whole: SyncReport?
        repeat { whole = try b.cycle.reconcileSlice(&progress) } while whole == nil
        #expect(progress.slices == 2, "C's 4 records in slices of 3; A's 12 not read again")
        let report = try #require(whole)
        #expect(Set(report.fullReads.keys) == [aLog, try logName(c)])
        #expect(report.issues.contains { $0.kind == .checksumMismatch && $0.file == aLog }, "\(report.lines)")
        #expect(report.republished.isEmpty)
        #expect(b.storage.tasks.count == 15)
        #expect(b.storage.tasks.allSatisfy { a.storage.tasks[$0.key] == $0.value })
    }

    @Test func aSlicedReconcileFindsADamagedOwnLogAndRewritesIt() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder, options: SyncOptions(reconcileSliceRecords: 2))
        for n in 0..<8 { _ = a.add("task number \(n)") }
        try a.sync()
        let name = try logName(a)
        let bytes = try #require(folder.contents(of: name))
        folder.overwrite(name, at: bytes.count / 2, with: Array("XXXXXXXXXXXX".utf8))
        var progress = ReconcileProgress()
        var whole: SyncReport?
        repeat { whole = try a.cycle.reconcileSlice(&progress) } while whole == nil
        #expect(progress.slices > 1)
        #expect(whole?.ownLogRewritten == .damaged)
        let fresh = FakeReplica(folder: folder)
        #expect(try fresh.sync().issues.isEmpty)
        #expect(fresh.storage.tasks == a.storage.tasks)
    }

    @Test func aPeerChangeDuringTheStartUpReconcileIsMergedBeforeItEnds() throws {
        let peer = try TemporaryFolder("peer")
        let time = ManualMonotonicClock()
        let a = try StoreReplica(peer: peer.url, options: SyncOptions(reconcileSliceRecords: 2), watchClock: time)
        let b = try StoreReplica(peer: peer.url)
        for n in 0..<20 { _ = try b.store.add(TaskDraft(title: "task number \(n)")) }
        try b.engine.syncOnce()
        try a.engine.syncOnce()
        #expect(try a.store.taskCount() == 20)

        // After each slice: whether the reconcile ended, and whether B's new
        // task is in A's store. B writes it after the first slice.
        let seen = Mutex<[(slice: Int, finished: Bool, arrived: Bool)]>([])
        let late = Mutex<TaskID?>(nil)
        let engine = a.engine, store = a.store, writer = b.engine
        a.engine.sliceObserver.withLock {
            $0 = { slice, finished in
                let arrived = late.withLock { $0 }.map { (try? store.task($0)) != nil } ?? false
                seen.withLock { $0.append((slice, finished, arrived)) }
                guard slice == 1 else { return }
                // On the engine's cycle queue: the watcher sees the peer
                // folder change and queues a cycle, ahead of the next slice.
                let task = try? writer.store.add(TaskDraft(title: "arrived during the reconcile"))
                late.withLock { $0 = task?.id }
                _ = try? writer.syncOnce()
                engine.watcherClockMoved()
                time.advance(200)
                engine.watcherClockMoved()
            }
        }
        a.engine.start(onChange: {})
        defer { a.engine.stop() }
        // Runs the first cycle and then every slice (the test's writes included).
        time.advance(200, driving: a.engine)

        let slices = seen.withLock { $0 }
        let id = try #require(late.withLock { $0 })
        #expect(slices.count > 5, "20 tasks' lines, 2 records a slice")
        #expect(slices.first.map { !$0.arrived && !$0.finished } == true)
        #expect(slices.count >= 2 && slices[1].arrived && !slices[1].finished, "merged before the second slice: \(slices)")
        #expect(slices.last?.finished == true)
        #expect(slices.filter(\.finished).count == 1)
        #expect(try a.store.task(id)?.title == "arrived during the reconcile")
        #expect(a.engine.status.lastError == nil)
        #expect(a.engine.status.notices.isEmpty, "\(a.engine.status.notices)")
    }
}
