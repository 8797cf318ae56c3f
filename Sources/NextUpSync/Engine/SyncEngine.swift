import Foundation
import NextUpCore
import NextUpStore
import Synchronization

/// Runs sync between one store and one peer folder: one cycle on demand
/// (``syncOnce(full:)``), or in the background (``start(onChange:)``), the way
/// the TUI and `nextup sync --watch` use it.
///
/// Contract:
/// - At most one cycle runs on a store at a time, across threads *and*
///   processes: cycles hold an `flock` on `sync.lock` in the store folder
///   (released by the kernel if the holder dies, even by SIGKILL).
/// - In the background, a ``ChangeWatcher`` on the store folder (another
///   process's commit shows up on the `-wal` file) and on the peer folder
///   (inotify, plus a stat poll every few seconds for network file systems)
///   triggers cycles, debounced. The first background cycle is a full
///   reconcile. `onChange` is called on the background thread after any cycle
///   that merged remote changes, uploaded local ones (a local commit, maybe
///   by another process, happened), or changed the ``status``; the receiver
///   re-reads the store (and must not touch a UI from that thread).
/// - An idle engine is quiet: a cycle with nothing new writes nothing, so it
///   does not wake itself up again.
/// - ``status`` is safe to read from any thread at any time.
/// - The engine works through the caller's `TaskStore` (one connection per
///   process: a second open of the same database in one process can drop
///   SQLite's locks). Its transactions are short (at most
///   ``SyncOptions/mergeBatch`` records), so a UI sharing the connection
///   stalls at most briefly, even during a large reconcile.
/// - ``syncOnce(full:lockTimeout:)`` runs on the caller's thread and may take
///   a while; a UI calls ``requestSync()`` instead.
public final class SyncEngine: Sendable {
    public let store: TaskStore
    public let peerFolder: URL
    public let cycle: SyncCycle

    private struct State {
        var status = SyncStatus()
        var watcher: ChangeWatcher?
        var fullPending = false
    }

    private let state = Mutex(State())
    /// Serialises cycles within this process (the flock does across processes).
    private let cycleLock = NSLock()
    private let syncLock: StoreLock?
    private let clock: any PhysicalClock

    /// The name of the lock file in the store folder.
    public static let lockFileName = "sync.lock"

    public init(store: TaskStore, peerFolder: URL, clock: any PhysicalClock = SystemClock(), options: SyncOptions = SyncOptions()) {
        self.store = store
        self.peerFolder = peerFolder.standardizedFileURL
        self.clock = clock
        // The caller's connection, never a second one: opening the same
        // database twice in one process lets a stray close drop SQLite's
        // per-process fcntl locks, and another process may then delete the
        // WAL under us. Cycles keep their transactions and reads short.
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
            try self.cycle.run(full: full, adoptFolder: adoptFolder)
        }
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
    /// - Parameter onChange: called on the background thread after a cycle
    ///   that changed the store or the status.
    public func start(onChange: @escaping @Sendable () -> Void) {
        let watcher = ChangeWatcher(
            watching: [store.location.folder, peerFolder],
            polling: [peerFolder],
            pollIntervalMillis: cycle.options.pollIntervalMillis,
            ignoring: Self.isIgnorable,
            onChange: { [weak self] in self?.backgroundCycle(onChange: onChange) }
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
            onChange()
        }
    }

    /// Asks the background sync for a cycle soon (debounced with changes).
    /// Does nothing unless started.
    public func requestSync() {
        state.withLock { $0.watcher }?.trigger()
    }

    /// Stops the background sync, waiting for a running cycle to finish.
    public func stop() {
        let watcher = state.withLock { s -> ChangeWatcher? in
            defer { s.watcher = nil }
            return s.watcher
        }
        watcher?.stop()
    }

    /// Names whose changes never call for a cycle: lock files, SQLite's shared
    /// memory file, temporary files of file-sync tools and of nextup.
    static func isIgnorable(_ name: String) -> Bool {
        name == lockFileName || name == "nextup.lock" || name.hasSuffix("-shm")
            || PeerFileName.isTemporary(name) || name.hasSuffix(PeerFileName.mergedSuffix)
    }

    // MARK: -

    private func backgroundCycle(onChange: @Sendable () -> Void) {
        let full = state.withLock { s -> Bool in
            defer { s.fullPending = false }
            return s.fullPending
        }
        let before = status
        var changedStore = false
        do {
            let report = try syncOnce(full: full)
            // Uploading means a local commit happened (maybe by another
            // process): worth a reload as much as a merge is.
            changedStore = report.changedStore || report.uploaded > 0
        } catch {
            // Recorded in the status by runLocked; a failed full reconcile is retried.
            if full { state.withLock { $0.fullPending = true } }
        }
        if changedStore || !status.sameApartFromTime(before) { onChange() }
    }

    private func runLocked(lockTimeout: Double, fullCycle: Bool, readsPeers: Bool, _ body: () throws -> SyncReport) throws -> SyncReport {
        cycleLock.lock()
        defer { cycleLock.unlock() }
        state.withLock { $0.status.isSyncing = true }
        do {
            try acquireFileLock(timeout: lockTimeout)
            defer { syncLock?.unlock() }
            let report = try body()
            let pending = (try? cycle.storage.pendingLocalChangeCount()) ?? 0
            let now = clock.nowMillis()
            state.withLock { s in
                s.status.isSyncing = false
                s.status.lastSuccessMillis = now
                s.status.lastError = nil
                s.status.pendingLocalChanges = pending
                if readsPeers { s.status.peersSeen = report.peers.count }
                s.status.notices = report.notices
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
