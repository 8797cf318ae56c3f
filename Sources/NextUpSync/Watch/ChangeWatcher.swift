import Foundation
import Glibc
import Synchronization

/// Notices that something changed in a few folders and says so, once per burst,
/// on its own thread (DESIGN.md §6).
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
///   returned. It carries no detail: the receiver re-reads what it cares about.
/// - A folder that is missing, or disappears, is not an error: the watcher tries
///   to watch it again at every poll tick, and its appearing counts as a change.
/// - Names for which `ignoring` returns true (e.g. a lock file, a file-sync
///   tool's temp files) are neither signalled nor fingerprinted.
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
        var thread: Thread?
    }

    private let watched: [String]
    private let polled: [String]
    private let pollIntervalMillis: Int64
    private let debouncer: Debouncer
    private let ignoring: @Sendable (String) -> Bool
    private let onChange: @Sendable () -> Void
    private let state = Mutex(State())
    /// Signalled by the thread when it has exited its loop.
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled by the thread once its watches are in place.
    private let ready = DispatchSemaphore(value: 0)
    /// Self-pipe: byte `s` asks the loop to stop, byte `t` to signal a change.
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
    ///   - onChange: called on the watcher thread once per burst of changes.
    public init(
        watching watched: [URL],
        polling polled: [URL] = [],
        pollIntervalMillis: Int64 = 3_000,
        debouncer: Debouncer = Debouncer(),
        ignoring: @escaping @Sendable (String) -> Bool = { _ in false },
        onChange: @escaping @Sendable () -> Void
    ) {
        self.watched = watched.map { $0.standardizedFileURL.path }
        self.polled = polled.map { $0.standardizedFileURL.path }
        self.pollIntervalMillis = max(50, pollIntervalMillis)
        self.debouncer = debouncer
        self.ignoring = ignoring
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
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else {
            throw StartError(description: "cannot start watching for changes (inotify): \(String(cString: strerror(errno)))")
        }
        let launched: Bool = state.withLock { state in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            let thread = Thread { [self] in
                self.run(inotify: inotify)
                close(inotify)
                self.finished.signal()
            }
            thread.name = "nextup.ChangeWatcher"
            state.thread = thread
            thread.start()
            return true
        }
        if launched { ready.wait() } else { close(inotify) }
    }

    /// Signals a change as if a watched file had changed (debounced like one).
    /// Does nothing unless the watcher is running.
    public func trigger() { wake(UInt8(ascii: "t")) }

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

    private static func monotonicMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000 + Int64(ts.tv_nsec) / 1_000_000
    }

    private static let mask: UInt32 = UInt32(IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    private func run(inotify: Int32) {
        var debouncer = self.debouncer
        var watches: [Int32: String] = [:]   // watch descriptor → folder
        var fingerprints: [String: Int] = [:]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)

        func addMissingWatches() -> Bool {
            var appeared = false
            let present = Set(watches.values)
            for folder in watched where !present.contains(folder) {
                let wd = inotify_add_watch(inotify, folder, Self.mask | UInt32(IN_ONLYDIR))
                if wd >= 0 { watches[wd] = folder; appeared = true }
            }
            return appeared
        }
        func pollFolders() -> Bool {
            var changed = false
            for folder in polled {
                let print = fingerprint(of: folder)
                if let old = fingerprints[folder], old != print { changed = true }
                fingerprints[folder] = print
            }
            return changed
        }

        _ = addMissingWatches()
        _ = pollFolders()
        ready.signal()
        var nextPoll = Self.monotonicMillis() + pollIntervalMillis

        while true {
            let now = Self.monotonicMillis()
            let wakeAt = min(nextPoll, debouncer.deadline ?? nextPoll)
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let timeout = Int32(clamping: max(0, wakeAt - now))
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { break }

            if fds[1].revents != 0 {
                var byte: UInt8 = 0
                var stop = false
                while read(wakeRead, &byte, 1) == 1 {
                    if byte == UInt8(ascii: "s") { stop = true }
                    else { debouncer.record(at: Self.monotonicMillis()) }
                }
                if stop { return }
            }

            if fds[0].revents != 0 {
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    var relevant = false
                    buffer.withUnsafeBytes { raw in
                        var offset = 0
                        while offset + 16 <= count {
                            let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                            let eventMask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                            let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                            let nameBytes = raw[(offset + 16)..<min(count, offset + 16 + length)]
                            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                            offset += 16 + length
                            if eventMask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true; continue }
                            if eventMask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                                if eventMask & UInt32(IN_IGNORED) != 0 { watches[wd] = nil }
                                relevant = true
                                continue
                            }
                            if name.isEmpty || !ignoring(name) { relevant = true }
                        }
                    }
                    if relevant { debouncer.record(at: Self.monotonicMillis()) }
                }
            }

            let after = Self.monotonicMillis()
            if after >= nextPoll {
                let appeared = addMissingWatches()
                if pollFolders() || (appeared && !polled.isEmpty) { debouncer.record(at: after) }
                nextPoll = after + pollIntervalMillis
            }
            if debouncer.fireIfDue(at: Self.monotonicMillis()) {
                let stopped = state.withLock { $0.stopped }
                if stopped { return }
                onChange()
            }
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
