import Glibc
import NextUpCore
import Synchronization
@testable import NextUpSync

/// Timer time a test moves by hand: a watcher on this clock sees time pass
/// only when the test advances it and calls `clockMoved()`.
final class ManualMonotonicClock: MonotonicClock, Sendable {
    private let now = Mutex<Int64>(1_000_000)
    func monotonicMillis() -> Int64 { now.withLock { $0 } }
    func advance(_ millis: Int64) { now.withLock { $0 += millis } }

    /// Lets `engine`'s watcher take in what already happened (at the current
    /// time), then moves time on and waits until the watcher — and any cycle
    /// that became due — has handled that too.
    func advance(_ millis: Int64, driving engine: SyncEngine) {
        engine.clockMoved()
        advance(millis)
        engine.clockMoved()
    }
}

/// A wall clock that starts at the machine's time and then moves one
/// millisecond each time it is read, so every sync cycle stamps a new
/// `lastSuccessMillis` (and other stores' changes are not from its future).
final class CountingClock: PhysicalClock, Sendable {
    private let now = Mutex<Int64>(SystemClock().nowMillis())
    func nowMillis() -> Int64 { now.withLock { $0 += 1; return $0 } }
}

/// The real kernel calls, except that the next `poll`s, or the next attempts
/// to make an inotify instance, fail on demand.
final class FlakyWatchSystem: WatchSystem, Sendable {
    private let real = LinuxWatchSystem()
    private let failures = Mutex<(polls: Int, inotify: Int)>((0, 0))

    func failPolls(_ count: Int) { failures.withLock { $0.polls += count } }
    func failInotify(_ count: Int) { failures.withLock { $0.inotify += count } }

    private func take(_ path: WritableKeyPath<(polls: Int, inotify: Int), Int>) -> Bool {
        failures.withLock { f in
            guard f[keyPath: path] > 0 else { return false }
            f[keyPath: path] -= 1
            return true
        }
    }

    func makeInotify() -> Int32 {
        if take(\.inotify) { errno = EMFILE; return -1 }
        return real.makeInotify()
    }
    func addWatch(_ inotify: Int32, folder: String, mask: UInt32) -> Int32 { real.addWatch(inotify, folder: folder, mask: mask) }
    func poll(_ fds: inout [pollfd], timeoutMillis: Int32) -> Int32 {
        if take(\.polls) { errno = EBADF; return -1 }
        return real.poll(&fds, timeoutMillis: timeoutMillis)
    }
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int { real.read(fd, into: buffer) }
    func close(_ fd: Int32) { real.close(fd) }
}
