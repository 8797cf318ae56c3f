import Foundation
import NextUpCore
import NextUpStore
import Synchronization

/// Runs sync between one store and one peer folder: one cycle on demand
/// (``syncOnce(full:)``), or in the background (``start(onEvent:)``), the way
/// the TUI and `nextup sync --watch` use it.
///
/// Contract:
/// - At most one cycle runs on a store at a time, across threads *and*
///   processes: cycles hold an `flock` on `sync.lock` in the store folder
///   (released by the kernel if the holder dies, even by SIGKILL).
/// - In the background, one ``ChangeWatcher`` — the process's only watcher of
///   these folders — on the store folder (any commit, this process's or
///   another's, shows up on the `-wal` file) and on the peer folder (inotify,
///   plus a stat poll every few seconds for network file systems) triggers
///   cycles, debounced. Cycles run one at a time on the engine's own queue,
///   off the watcher's thread, so folder events keep coming during a long cycle.
/// - The background sync starts with a full reconcile that never holds live
///   changes back: the first cycle is an incremental one (what is new in the
///   peer logs, on screen at once), then the reconcile runs in slices
///   (``SyncCycle/reconcileSlice(_:merged:)``, ``SyncOptions/reconcileSliceRecords``
///   records each), every slice taking and releasing the locks on its own.
///   A cycle that a change calls for while the reconcile is under way runs
///   before the next slice, so a peer's change waits for at most one slice.
///   The last slice ends like a full cycle (``status`` as after
///   ``syncOnce(full:)``); a reconcile that fails starts again at the next
///   cycle. ``syncOnce(full:)`` is never sliced. `onEvent` is
///   called on those background threads (so it must be thread-safe, and must
///   not call ``stop()``): ``Event/storeFolderChanged``
///   and ``Event/peerFolderChanged`` before the cycle a change causes (so a UI
///   listening here needs no watcher of its own), ``Event/merged`` as soon as
///   a cycle's merge of remote changes has committed (before it uploads or
///   tidies up), ``Event/syncFinished(changedStore:)``
///   after a cycle that merged remote changes, uploaded local ones (a local
///   commit, maybe by another process, happened), or changed the ``status``,
///   and ``Event/statusChanged`` when the watcher fails or recovers (the
///   reason is in ``SyncStatus/watchProblem``; the watcher restarts itself).
///   The receiver re-reads what it shows, and must not touch a UI from that
///   thread.
/// - An idle engine is quiet: a cycle with nothing new writes nothing, so it
///   does not wake itself up again.
/// - ``status`` is safe to read from any thread at any time.
/// - The engine works through the `TaskStore` it is given and opens no other.
///   Its transactions are short (at most ``SyncOptions/mergeBatch`` records),
///   so a UI sharing the connection stalls at most briefly, even during a
///   large reconcile. (The TUI gives it a store object of its own anyway; see
///   `TerminalApp`. Two SQLite connections to one file in one process are
///   safe — SQLite keeps one lock state per file per process; what is not
///   safe is opening the file *outside* SQLite, which `TaskStore.open`
///   avoids for a store already open.)
/// - Time for the watcher comes from the injected ``MonotonicClock`` and its
///   kernel calls from the injected ``WatchSystem``: tests drive the
///   background sync with ``clockMoved()`` instead of sleeping.
/// - ``syncOnce(full:lockTimeout:)`` runs on the caller's thread and may take
///   a while; a UI calls ``requestSync()`` instead.
public final class SyncEngine: Sendable {
    public let store: TaskStore
    public let peerFolder: URL
    public let cycle: SyncCycle
    /// Run after every cycle, its folder watched too (the phone bridge).
    public let companion: (any SyncCompanion)?

    /// What the background sync tells its receiver (see the type's contract).
    public enum Event: Sendable, Equatable {
        /// The store folder changed (a commit by this process or another);
        /// sent before the cycle the change causes.
        case storeFolderChanged
        /// The peer folder changed; sent before the cycle the change causes.
        case peerFolderChanged
        /// A background cycle merged remote changes and committed them; sent
        /// at once, before the cycle's upload and housekeeping (its
        /// ``syncFinished(changedStore:)`` follows when it ends).
        case merged
        /// A cycle ended that changed the store (`changedStore`: merged or
        /// uploaded) or the ``status``.
        case syncFinished(changedStore: Bool)
        /// The status changed outside a cycle: the watcher failed or recovered.
        case statusChanged
    }

    private struct State {
        var status = SyncStatus()
        var watcher: ChangeWatcher?
        var fullPending = false
        /// A background cycle is queued and has not started yet.
        var cycleQueued = false
        /// Set by ``stop()``: queued cycles do not run.
        var stopping = false
        /// Someone asked for a cycle (``requestSync()``): the next one
        /// reports its end even when nothing changed.
        var answerPending = false
        /// The start-up reconcile under way, between slices and cycles
        /// (nil while one of them works on it, on the cycle queue).
        var reconcile: ReconcileProgress?
        /// A reconcile started and has not finished, failed or been stopped
        /// (``reconcile`` is nil while a slice or cycle works on it).
        var reconciling = false
        /// Which reconcile the queued slices belong to: a slice of an older
        /// one (before a ``stop()``, or a failure) does nothing.
        var reconcileRun = 0
    }

    private let state = Mutex(State())
    /// Serialises cycles within this process (the flock does across processes).
    private let cycleLock = NSLock()
    /// Where background cycles run, one at a time: off the watcher's thread,
    /// so a long cycle never delays the "store changed" events a UI needs.
    private let cycles = DispatchQueue(label: "nextup.SyncEngine.cycles")
    private let syncLock: StoreLock?
    private let clock: any PhysicalClock
    private let watchClock: any MonotonicClock
    private let watchSystem: any WatchSystem
    /// Called on the cycle queue after each slice of the start-up reconcile,
    /// with the slice's number and whether it finished the reconcile. For tests.
    let sliceObserver = Mutex<(@Sendable (_ slice: Int, _ finished: Bool) -> Void)?>(nil)

    /// The name of the lock file in the store folder.
    public static let lockFileName = "sync.lock"

    /// - Parameters:
    ///   - clock: wall-clock time (status times, log headers, versions).
    ///   - watchClock: timer time for the background watcher.
    ///   - watchSystem: the watcher's kernel calls.
    ///   - companion: another folder kept in step after every cycle (see ``SyncCompanion``).
    public init(store: TaskStore, peerFolder: URL, clock: any PhysicalClock = SystemClock(), options: SyncOptions = SyncOptions(),
                watchClock: any MonotonicClock = SystemMonotonicClock(), watchSystem: any WatchSystem = LinuxWatchSystem(),
                companion: (any SyncCompanion)? = nil) {
        self.store = store
        self.companion = companion
        self.peerFolder = peerFolder.standardizedFileURL
        self.clock = clock
        self.watchClock = watchClock
        self.watchSystem = watchSystem
        self.cycle = SyncCycle(storage: TaskStoreSyncStorage(store: store), folder: LocalPeerFolder(url: peerFolder), clock: clock, options: options)
        self.syncLock = try? StoreLock(folder: store.location.folder, name: Self.lockFileName)
    }

    /// A thread-safe snapshot of the sync state.
    public var status: SyncStatus { state.withLock { $0.status } }

    /// Runs one cycle now, on the calling thread, and updates ``status``.
    ///
    /// - Parameters:
    ///   - full: re-read every peer log from its start (always safe).
    ///   - lockTimeout: how long to wait for another process's cycle.
    /// - Throws: ``PeerFolderError`` (missing folder, a file instead of a
    ///   folder…), ``StoreError``, ``SyncError/busy(_:)``.
    ///   - adoptFolder: use the peer folder even when it is not the one this
    ///     store synced with (a new share on purpose): `sync --adopt-folder`.
    @discardableResult
    public func syncOnce(full: Bool = false, adoptFolder: Bool = false, lockTimeout: Double = 60) throws -> SyncReport {
        try runLocked(lockTimeout: lockTimeout, fullCycle: full, readsPeers: true) {
            self.withCompanion(try self.cycle.run(full: full, adoptFolder: adoptFolder))
        }
    }

    /// Runs the companion after a cycle, its outcome added to `report`.
    private func withCompanion(_ cycleReport: SyncReport) -> SyncReport {
        var report = cycleReport
        guard let companion else { return report }
        do {
            let result = try companion.run()
            report.companion = result
            if result.changedStore { report.uploaded += try cycle.publish().uploaded }
        } catch {
            report.companionError = "\(error)"
        }
        return report
    }

    /// What a sync would run into, in plain words (empty: nothing); writes
    /// nothing. See ``SyncCycle/diagnose()``.
    public func diagnose() -> [String] { cycle.diagnose() }

    /// Appends this store's pending local changes to its own log, without
    /// reading other logs: what a command calls after it changed tasks.
    @discardableResult
    public func publishLocalChanges(lockTimeout: Double = 5) throws -> SyncReport {
        try runLocked(lockTimeout: lockTimeout, fullCycle: false, readsPeers: false) {
            try self.cycle.publish()
        }
    }

    /// Starts syncing in the background (see the type's contract). Calling it
    /// again while running does nothing.
    ///
    /// - Parameter onEvent: called on background threads (see the type's contract).
    public func start(onEvent: @escaping @Sendable (Event) -> Void) {
        let storeFolder = store.location.folder.standardizedFileURL.path
        let peerPath = peerFolder.path
        let watcher = ChangeWatcher(
            watching: [store.location.folder, peerFolder] + (companion.map { [$0.folder.standardizedFileURL] } ?? []),
            polling: [peerFolder],
            pollIntervalMillis: cycle.options.pollIntervalMillis,
            ignoring: Self.isIgnorable,
            clock: watchClock,
            system: watchSystem,
            onProblem: { [weak self] problem in
                self?.state.withLock { $0.status.watchProblem = problem }
                onEvent(.statusChanged)
            },
            onChange: { [weak self] changes in
                if changes.folders.contains(storeFolder) { onEvent(.storeFolderChanged) }
                if changes.folders.contains(peerPath) { onEvent(.peerFolderChanged) }
                self?.queueCycle(onEvent: onEvent)
            }
        )
        let started: Bool = state.withLock { s in
            guard s.watcher == nil else { return false }
            s.watcher = watcher
            s.fullPending = true
            return true
        }
        guard started else { return }
        do {
            try watcher.start()
            watcher.trigger()
        } catch {
            state.withLock { s in
                s.status.lastError = SyncError.describe(error)
                s.watcher = nil
            }
            onEvent(.statusChanged)
        }
    }

    /// ``start(onEvent:)`` for a receiver that only cares when a cycle changed
    /// the store or the status (`nextup sync --watch`).
    public func start(onChange: @escaping @Sendable () -> Void) {
        start(onEvent: { event in
            switch event {
            case .syncFinished, .statusChanged: onChange()
            case .storeFolderChanged, .peerFolderChanged, .merged: break
            }
        })
    }

    /// Whether the background sync is running.
    public var isRunning: Bool { state.withLock { $0.watcher }?.isRunning ?? false }

    /// With an injected watch clock: makes the background watcher re-read it,
    /// returning once any cycle that became due has finished, and the
    /// start-up reconcile's slices too. For tests.
    public func clockMoved() {
        state.withLock { $0.watcher }?.clockMoved()
        // A slice queues the next one after putting the reconcile back.
        repeat { cycles.sync {} } while state.withLock { $0.reconciling }
    }

    /// Makes the background watcher re-read the injected clock, and returns
    /// once it has — without waiting for the cycles that queues, so it may be
    /// called on the cycle queue (from ``sliceObserver``). For tests.
    func watcherClockMoved() {
        state.withLock { $0.watcher }?.clockMoved()
    }

    /// Asks the background sync for a cycle soon (debounced with changes).
    /// Does nothing unless started.
    public func requestSync() {
        state.withLock { s in
            if s.watcher != nil { s.answerPending = true }
            return s.watcher
        }?.trigger()
    }

    /// Stops the background sync, waiting for a running cycle to finish.
    public func stop() {
        let watcher = state.withLock { s -> ChangeWatcher? in
            defer { s.watcher = nil; s.stopping = true; s.reconcile = nil; s.reconciling = false; s.reconcileRun += 1 }
            return s.watcher
        }
        watcher?.stop()
        cycles.sync {}
        state.withLock { $0.stopping = false }
    }

    /// Names whose changes never call for a cycle: lock files, SQLite's shared
    /// memory file, temporary files of file-sync tools and of nextup.
    public static func isIgnorableName(_ name: String) -> Bool { isIgnorable(name) }

    static func isIgnorable(_ name: String) -> Bool {
        name == lockFileName || name == "nextup.lock" || name == "vdir.lock" || name.hasSuffix("-shm")
            || PeerFileName.isTemporary(name) || name.hasSuffix(PeerFileName.mergedSuffix)
    }

    // MARK: -

    /// Queues a background cycle unless one is already waiting to start
    /// (changes during a running cycle make exactly one more).
    private func queueCycle(onEvent: @escaping @Sendable (Event) -> Void) {
        let queue = state.withLock { s -> Bool in
            guard !s.cycleQueued, !s.stopping else { return false }
            s.cycleQueued = true
            return true
        }
        guard queue else { return }
        cycles.async { [weak self] in
            guard let self else { return }
            let run = self.state.withLock { s -> Bool in
                s.cycleQueued = false
                return !s.stopping
            }
            if run { self.backgroundCycle(onEvent: onEvent) }
        }
    }

    /// An incremental cycle; the first one after ``start(onEvent:)`` (or
    /// after a failed reconcile) then starts the reconcile's slices.
    private func backgroundCycle(onEvent: @escaping @Sendable (Event) -> Void) {
        // The reconcile under way is moved out of the state while this cycle
        // tells it what it reads, and put back after.
        let (startsReconcile, run, taken) = state.withLock { s -> (Bool, Int, ReconcileProgress?) in
            let starts = s.fullPending
            if starts {
                s.fullPending = false
                s.reconcileRun += 1
                s.reconcile = ReconcileProgress()
                s.reconciling = true
            }
            defer { s.reconcile = nil }
            return (starts, s.reconcileRun, s.reconcile)
        }
        var progress = taken
        let before = status
        var changedStore = false
        do {
            let report = try runLocked(lockTimeout: 60, fullCycle: false, readsPeers: true) {
                let merged = { onEvent(.merged) }
                return self.withCompanion(progress == nil ? try self.cycle.run(merged: merged)
                                                          : try self.cycle.run(alongside: &progress!, merged: merged))
            }
            // Uploading means a local commit happened (maybe by another
            // process): worth a reload as much as a merge is.
            changedStore = report.changedStore || report.uploaded > 0
        } catch {
            // Recorded in the status by runLocked.
        }
        let resumes = state.withLock { s -> Bool in
            guard let progress, !s.stopping, s.reconcileRun == run else { return false }
            s.reconcile = progress
            return true
        }
        if startsReconcile && !resumes { state.withLock { if $0.reconcileRun == run { $0.reconciling = false } } }
        if startsReconcile && resumes { queueReconcileSlice(run: run, onEvent: onEvent) }
        let answer = state.withLock { s -> Bool in
            defer { s.answerPending = false }
            return s.answerPending
        }
        if changedStore || answer || !status.sameApartFromTime(before) { onEvent(.syncFinished(changedStore: changedStore)) }
    }

    /// Queues the next slice of reconcile `run`, behind any cycle already
    /// queued (a change noticed during the last slice is merged first).
    private func queueReconcileSlice(run: Int, onEvent: @escaping @Sendable (Event) -> Void) {
        cycles.async { [weak self] in self?.reconcileSlice(run: run, onEvent: onEvent) }
    }

    /// One slice of the start-up reconcile, under the locks; queues the next.
    private func reconcileSlice(run: Int, onEvent: @escaping @Sendable (Event) -> Void) {
        let taken = state.withLock { s -> ReconcileProgress? in
            guard !s.stopping, s.reconcileRun == run else { return nil }
            defer { s.reconcile = nil }
            return s.reconcile
        }
        guard var progress = taken else { return }
        let before = status
        let mergedBefore = progress.merged
        var whole: SyncReport?
        var failed = false
        do {
            whole = try runLocked(lockTimeout: 60, fullCycle: true, readsPeers: true, slice: true) {
                try self.cycle.reconcileSlice(&progress, merged: { onEvent(.merged) })
            }
        } catch {
            // Recorded in the status by runLocked; the next cycle starts a new reconcile.
            failed = true
        }
        let more = state.withLock { s -> Bool in
            guard !s.stopping, s.reconcileRun == run else { return false }
            if failed {
                s.fullPending = true
                s.reconciling = false
                return false
            }
            if progress.isFinished { s.reconciling = false } else { s.reconcile = progress }
            return !progress.isFinished
        }
        sliceObserver.withLock { $0 }?(progress.slices, progress.isFinished)
        if more { queueReconcileSlice(run: run, onEvent: onEvent) }
        let changedStore = whole.map { $0.changedStore || $0.uploaded > 0 } ?? (progress.merged > mergedBefore)
        if changedStore || !status.sameApartFromTime(before) { onEvent(.syncFinished(changedStore: changedStore)) }
    }

    private func runLocked(lockTimeout: Double, fullCycle: Bool, readsPeers: Bool, _ body: () throws -> SyncReport) throws -> SyncReport {
        try runLocked(lockTimeout: lockTimeout, fullCycle: fullCycle, readsPeers: readsPeers, slice: false) { try body() }!
    }

    /// Runs `body` under both locks. A report (a cycle's end) updates the
    /// whole ``status``; nil (`slice`: a reconcile slice, not its end) only
    /// ``SyncStatus/isSyncing`` — or the error, when it throws.
    private func runLocked(lockTimeout: Double, fullCycle: Bool, readsPeers: Bool, slice: Bool, _ body: () throws -> SyncReport?) throws -> SyncReport? {
        cycleLock.lock()
        defer { cycleLock.unlock() }
        state.withLock { $0.status.isSyncing = true }
        do {
            try acquireFileLock(timeout: lockTimeout)
            defer { syncLock?.unlock() }
            guard let report = try body() else {
                state.withLock { $0.status.isSyncing = false }
                return nil
            }
            let pending = (try? cycle.storage.pendingLocalChangeCount()) ?? 0
            let now = clock.nowMillis()
            state.withLock { s in
                s.status.isSyncing = false
                s.status.cyclesFinished += 1
                s.status.lastSuccessMillis = now
                s.status.lastError = nil
                s.status.lastSummary = report.lines.first
                s.status.lastUploaded = report.uploaded
                s.status.lastMerged = report.merged
                s.status.pendingLocalChanges = pending
                if readsPeers { s.status.peersSeen = report.peers.count }
                // What a cycle skipped stays said until a full read (which
                // reads every line again) or a cycle with news of its own:
                // the cycles after it read past the damaged line.
                if fullCycle || !report.notices.isEmpty { s.status.notices = report.notices }
                if let problem = report.companionError { s.status.lastError = problem }
                if let (file, ahead) = report.clockSkew.max(by: { $0.value < $1.value }) {
                    s.status.skewWarning = "\(file) holds changes \(SyncReport.duration(ahead)) ahead of this machine's clock"
                } else if fullCycle {
                    s.status.skewWarning = nil
                }
            }
            return report
        } catch {
            let pending = try? cycle.storage.pendingLocalChangeCount()
            state.withLock { s in
                s.status.isSyncing = false
                s.status.cyclesFinished += 1
                s.status.lastError = SyncError.describe(error)
                if let pending { s.status.pendingLocalChanges = pending }
            }
            throw error
        }
    }

    private func acquireFileLock(timeout: Double) throws {
        guard let syncLock else {
            throw StoreError.notWritable(path: store.location.folder.appendingPathComponent(Self.lockFileName).path, reason: "cannot open the sync lock file")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while !syncLock.tryLockExclusive() {
            if Date() >= deadline { throw SyncError.busy(syncLock.path) }
            usleep(20_000)
        }
    }
}
