import Foundation
import Glibc
import Synchronization

/// Notices that something changed in a few folders and says which, once per
/// burst, on its own thread (DESIGN.md §6). A process makes one watcher per
/// folder: the sync engine's watches the store folder and the peer folder,
/// and the TUI listens to it instead of watching the store folder again.
///
/// Two sources feed one ``Debouncer``:
/// - **inotify** on every folder in `watched` (changes made on this machine,
///   including another process's SQLite commit, which shows up as `IN_MODIFY` on
///   the store's `-wal` file);
/// - a **stat poll** every `pollIntervalMillis` of every folder in `polled`
///   (names, sizes, modification times, inodes), because inotify sees nothing
///   that another host writes over NFS or sshfs.
///
/// Contract:
/// - `onChange` is called on the watcher's own thread, never concurrently with
///   itself, at most once per debounced burst, and never after ``stop()`` has
///   returned. It says which folders changed (``FolderChanges``), nothing more.
/// - A folder that is missing, or disappears (removed, or removed and made
///   again), is not an error: the watcher watches it again as soon as it is
///   back — at the latest at the next poll tick — and its appearing counts as
///   a change of that folder.
/// - When watching itself fails (`poll` or inotify reports an error, or a new
///   inotify instance cannot be made), the watcher does not end: it calls
///   `onProblem` with the reason in plain words (also in ``problem``), makes a
///   new inotify instance and watches every folder again (retrying at every
///   poll tick), and then signals a change of every folder, since anything may
///   have changed meanwhile. `onProblem(nil)` follows once a signal was
///   delivered after a successful restart.
/// - A change of attributes alone (owner, mode) of a SQLite write-ahead log
///   (`…-wal`) is not a change: SQLite run by root `fchown`s the WAL at every
///   open, so every read-only command would wake every watcher and, polled,
///   hold the debouncer at its maximum delay; a commit is always `IN_MODIFY`.
/// - Names for which `ignoring` returns true (e.g. a lock file, a file-sync
///   tool's temp files) are neither signalled nor fingerprinted.
/// - Time is read only from the injected ``MonotonicClock``, and kernel calls go
///   through the injected ``WatchSystem``: a test drives time with
///   ``clockMoved()`` instead of sleeping.
/// - The watcher touches nothing it watches, never uses `DispatchQueue.main` and
///   never calls into a UI; it is safe to use from any thread.
public final class ChangeWatcher: Sendable {
    /// Why the watcher could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    private struct State: ~Copyable {
        var started = false
        var stopped = false
        var running = false
        var thread: Thread?
        var problem: String?
    }

    private let watched: [String]
    private let polled: [String]
    private let pollIntervalMillis: Int64
    private let debouncer: Debouncer
    private let ignoring: @Sendable (String) -> Bool
    private let clock: any MonotonicClock
    private let system: any WatchSystem
    private let onProblem: @Sendable (String?) -> Void
    private let onChange: @Sendable (FolderChanges) -> Void
    private let state = Mutex(State())
    /// Signalled by the thread when it has exited its loop.
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled by the thread once its watches are in place.
    private let ready = DispatchSemaphore(value: 0)
    /// Signalled once per ``clockMoved()`` after the pass that handled it.
    private let moved = DispatchSemaphore(value: 0)
    /// Self-pipe: byte `s` asks the loop to stop, `t` to signal a change, `c`
    /// to re-read the clock.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Makes a watcher; nothing happens before ``start()``.
    ///
    /// - Parameters:
    ///   - watched: folders to watch with inotify (local changes).
    ///   - polled: folders to stat-poll as well (network file systems).
    ///   - pollIntervalMillis: how often to poll, and to retry missing watches.
    ///   - debouncer: quiet period and maximum delay (default 150 ms / 1 s).
    ///   - ignoring: names (last path component) whose changes do not count.
    ///   - clock: where time comes from (tests pass one they move by hand).
    ///   - system: the kernel calls (tests pass one that fails on demand).
    ///   - onProblem: called on the watcher thread when watching fails (the
    ///     reason) and when it works again (nil).
    ///   - onChange: called on the watcher thread once per burst of changes.
    public init(
        watching watched: [URL],
        polling polled: [URL] = [],
        pollIntervalMillis: Int64 = 3_000,
        debouncer: Debouncer = Debouncer(),
        ignoring: @escaping @Sendable (String) -> Bool = { _ in false },
        clock: any MonotonicClock = SystemMonotonicClock(),
        system: any WatchSystem = LinuxWatchSystem(),
        onProblem: @escaping @Sendable (String?) -> Void = { _ in },
        onChange: @escaping @Sendable (FolderChanges) -> Void
    ) {
        self.watched = watched.map { $0.standardizedFileURL.path }
        self.polled = polled.map { $0.standardizedFileURL.path }
        self.pollIntervalMillis = max(50, pollIntervalMillis)
        self.debouncer = debouncer
        self.ignoring = ignoring
        self.clock = clock
        self.system = system
        self.onProblem = onProblem
        self.onChange = onChange
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Starts the watcher thread and returns once its watches are in place, so
    /// any change made after this returns is signalled. Calling it again, or
    /// after ``stop()``, does nothing.
    ///
    /// - Throws: ``StartError`` when inotify or the wake-up pipe cannot be made
    ///   (e.g. the per-user inotify instance limit is reached).
    public func start() throws {
        guard wakeRead >= 0 else { throw StartError(description: "cannot create a wake-up pipe: \(String(cString: strerror(errno)))") }
        let inotify = system.makeInotify()
        guard inotify >= 0 else {
            throw StartError(description: "cannot start watching for changes (inotify): \(String(cString: strerror(errno)))")
        }
        let launched: Bool = state.withLock { state in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            state.running = true
            let thread = Thread { [self] in
                self.run(inotify: inotify)
                self.state.withLock { $0.running = false }
                self.finished.signal()
            }
            thread.name = "nextup.ChangeWatcher"
            state.thread = thread
            thread.start()
            return true
        }
        if launched { ready.wait() } else { system.close(inotify) }
    }

    /// Whether the watcher thread is running (false before ``start()`` and
    /// once ``stop()`` has returned).
    public var isRunning: Bool { state.withLock { $0.running } }

    /// Why watching failed, in plain words; nil while it works.
    public var problem: String? { state.withLock { $0.problem } }

    /// Signals a change as if a watched file had changed (debounced like one),
    /// with ``FolderChanges/requested`` set. Does nothing unless running.
    public func trigger() { wake(UInt8(ascii: "t")) }

    /// Makes the watcher re-read its clock now, and returns once it has done
    /// so — after any signal that became due, and its `onChange`, has run.
    /// For tests with an injected clock: move the clock, then call this. Does
    /// nothing unless running; never call it from `onChange`.
    public func clockMoved() {
        guard isRunning, Thread.current != state.withLock({ $0.thread }) else { return }
        wake(UInt8(ascii: "c"))
        // The thread may end (stopped from `onChange`) before it reads the byte.
        while moved.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            if !isRunning { return }
        }
    }

    /// Stops the watcher and waits for its thread to end, so that `onChange` is
    /// not called after this returns (unless called from `onChange` itself,
    /// where it returns at once and the thread ends after the callback).
    public func stop() {
        let (wasRunning, thread): (Bool, Thread?) = state.withLock { state in
            defer { state.stopped = true }
            return (state.started && !state.stopped, state.thread)
        }
        guard wasRunning else { return }
        wake(UInt8(ascii: "s"))
        if let thread, thread == Thread.current { return }
        finished.wait()
    }

    private func wake(_ byte: UInt8) {
        var b = byte
        _ = write(wakeWrite, &b, 1)
    }

    // MARK: - The loop

    /// How often a folder without a watch is looked for (see the loop).
    static let missingRetryMillis: Int64 = 200
    private static let mask: UInt32 = UInt32(IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    private func setProblem(_ problem: String?) {
        let changed = state.withLock { s -> Bool in
            defer { s.problem = problem }
            return s.problem != problem
        }
        if changed { onProblem(problem) }
    }

    private func run(inotify initial: Int32) {
        var inotify = initial
        var debouncer = self.debouncer
        var pending = FolderChanges()
        var watches: [Int32: String] = [:]   // watch descriptor → folder
        var fingerprints: [String: Int] = [:]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var consecutiveFailures = 0
        var recovering = false   // a restart happened; clear the problem after the next signal
        let everyFolder = Set(watched + polled)

        func note(_ folders: some Sequence<String>, at now: Int64) {
            pending.folders.formUnion(folders)
            debouncer.record(at: now)
        }
        /// Watches every folder not watched yet; returns those that appeared.
        func addMissingWatches() -> [String] {
            guard inotify >= 0 else { return [] }
            let present = Set(watches.values)
            var appeared: [String] = []
            for folder in watched where !present.contains(folder) {
                let wd = system.addWatch(inotify, folder: folder, mask: Self.mask | UInt32(IN_ONLYDIR))
                if wd >= 0 { watches[wd] = folder; appeared.append(folder) }
            }
            return appeared
        }
        func pollFolders() -> [String] {
            var changed: [String] = []
            for folder in polled {
                let print = fingerprint(of: folder)
                if let old = fingerprints[folder], old != print { changed.append(folder) }
                fingerprints[folder] = print
            }
            return changed
        }
        /// Drops the broken inotify instance and makes a new one (or, when
        /// that fails too, leaves it to the next poll tick).
        func restart(after reason: String, at now: Int64) {
            if inotify >= 0 { system.close(inotify) }
            watches = [:]
            inotify = system.makeInotify()
            if inotify < 0 {
                setProblem("watching for changes failed (\(reason)); cannot watch again yet (inotify: \(String(cString: strerror(errno)))), retrying")
                return
            }
            setProblem("watching for changes failed (\(reason)); watching again")
            recovering = true
            _ = addMissingWatches()
            note(everyFolder, at: now)
        }

        _ = addMissingWatches()
        _ = pollFolders()
        ready.signal()
        var nextPoll = clock.monotonicMillis() + pollIntervalMillis
        // While a folder has no watch (removed, not made again yet, or not
        // there at all), it is looked for every `missingRetryMillis`, so a
        // folder made again (a remount) is watched within a moment rather
        // than at the next poll tick.
        var nextMissingCheck: Int64?

        while true {
            let now = clock.monotonicMillis()
            if inotify >= 0, watches.count < watched.count {
                if nextMissingCheck == nil { nextMissingCheck = now + Self.missingRetryMillis }
            } else {
                nextMissingCheck = nil
            }
            let wakeAt = min(nextPoll, debouncer.deadline ?? nextPoll, nextMissingCheck ?? nextPoll)
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let timeout = Int32(clamping: max(0, wakeAt - now))
            let readyCount = system.poll(&fds, timeoutMillis: timeout)
            if readyCount < 0 && errno != EINTR {
                let reason = "poll: \(String(cString: strerror(errno)))"
                // A failure that keeps coming back must not spin the CPU.
                consecutiveFailures += 1
                if consecutiveFailures > 1 { usleep(100_000) }
                restart(after: reason, at: clock.monotonicMillis())
                continue
            }
            consecutiveFailures = 0

            var clockMoves = 0
            if readyCount > 0 && fds[1].revents != 0 {
                var byte: UInt8 = 0
                var stop = false
                while read(wakeRead, &byte, 1) == 1 {
                    switch byte {
                    case UInt8(ascii: "s"): stop = true
                    case UInt8(ascii: "c"): clockMoves += 1
                    default:
                        pending.requested = true
                        debouncer.record(at: clock.monotonicMillis())
                    }
                }
                if stop {
                    if inotify >= 0 { system.close(inotify) }
                    for _ in 0..<clockMoves { moved.signal() }
                    return
                }
            }

            if readyCount > 0 && inotify >= 0 && fds[0].revents != 0 {
                var failure: String?
                while true {
                    let count = buffer.withUnsafeMutableBytes { system.read(inotify, into: $0) }
                    if count < 0 && errno != EAGAIN && errno != EINTR {
                        failure = "reading inotify: \(String(cString: strerror(errno)))"
                    }
                    if count <= 0 { break }
                    var changed: Set<String> = []
                    var lost: [String] = []
                    buffer.withUnsafeBytes { raw in
                        var offset = 0
                        while offset + 16 <= count {
                            let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                            let eventMask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                            let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                            let nameBytes = raw[(offset + 16)..<min(count, offset + 16 + length)]
                            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                            offset += 16 + length
                            if eventMask & UInt32(IN_Q_OVERFLOW) != 0 { changed.formUnion(everyFolder); continue }
                            guard let folder = watches[wd] else { continue }
                            if eventMask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                                if eventMask & UInt32(IN_IGNORED) != 0 { watches[wd] = nil; lost.append(folder) }
                                changed.insert(folder)
                                continue
                            }
                            if eventMask & ~UInt32(IN_ATTRIB) == 0 && name.hasSuffix("-wal") { continue }
                            if name.isEmpty || !ignoring(name) { changed.insert(folder) }
                        }
                    }
                    // A folder removed and made again needs a new watch: try
                    // at once (and at every poll tick until it is back).
                    if !lost.isEmpty { changed.formUnion(addMissingWatches()) }
                    if !changed.isEmpty { note(changed, at: clock.monotonicMillis()) }
                }
                if let failure {
                    restart(after: failure, at: clock.monotonicMillis())
                }
            }

            let after = clock.monotonicMillis()
            if let due = nextMissingCheck, after >= due {
                nextMissingCheck = nil
                let appeared = addMissingWatches()
                if !appeared.isEmpty { note(appeared, at: after) }
            }
            if after >= nextPoll {
                if inotify < 0 {
                    inotify = system.makeInotify()
                    if inotify >= 0 {
                        recovering = true
                        setProblem("watching for changes failed; watching again")
                        _ = addMissingWatches()
                        note(everyFolder, at: after)
                    }
                }
                let appeared = addMissingWatches()
                if !appeared.isEmpty { note(appeared, at: after) }
                let changed = pollFolders()
                if !changed.isEmpty { note(changed, at: after) }
                nextPoll = after + pollIntervalMillis
            }
            if debouncer.fireIfDue(at: clock.monotonicMillis()) {
                let stopped = state.withLock { $0.stopped }
                if stopped {
                    if inotify >= 0 { system.close(inotify) }
                    for _ in 0..<clockMoves { moved.signal() }
                    return
                }
                let changes = pending
                pending = FolderChanges()
                onChange(changes)
                if recovering && inotify >= 0 {
                    recovering = false
                    setProblem(nil)
                }
            }
            for _ in 0..<clockMoves { moved.signal() }
        }
    }

    /// A cheap summary of a folder's listing: each entry's name, size,
    /// modification time and inode, plus the folder's own identity. Changes
    /// whenever a file is added, removed, replaced, or written.
    private func fingerprint(of folder: String) -> Int {
        var hasher = Hasher()
        var info = stat()
        guard stat(folder, &info) == 0 else {
            hasher.combine("missing")
            return hasher.finalize()
        }
        hasher.combine(info.st_ino)
        hasher.combine(info.st_dev)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            hasher.combine("unreadable")
            return hasher.finalize()
        }
        for name in names.sorted() where !ignoring(name) {
            var entry = stat()
            guard stat(folder + "/" + name, &entry) == 0 else { continue }
            hasher.combine(name)
            hasher.combine(entry.st_size)
            hasher.combine(entry.st_mtim.tv_sec)
            hasher.combine(entry.st_mtim.tv_nsec)
            hasher.combine(entry.st_ino)
        }
        return hasher.finalize()
    }
}
