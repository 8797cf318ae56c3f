import Glibc

/// The kernel calls a ``ChangeWatcher`` makes, behind a protocol so tests can
/// make them fail (a `poll` error, an inotify instance that cannot be made)
/// and see the watcher report it and recover. ``LinuxWatchSystem`` is the real
/// one. Each call returns what the system call returns (-1 with `errno` set
/// on failure).
public protocol WatchSystem: Sendable {
    /// A new non-blocking, close-on-exec inotify instance.
    func makeInotify() -> Int32
    func addWatch(_ inotify: Int32, folder: String, mask: UInt32) -> Int32
    func poll(_ fds: inout [pollfd], timeoutMillis: Int32) -> Int32
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int
    func close(_ fd: Int32)
}

/// The real system calls.
public struct LinuxWatchSystem: WatchSystem {
    public init() {}
    public func makeInotify() -> Int32 { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    public func addWatch(_ inotify: Int32, folder: String, mask: UInt32) -> Int32 { inotify_add_watch(inotify, folder, mask) }
    public func poll(_ fds: inout [pollfd], timeoutMillis: Int32) -> Int32 { Glibc.poll(&fds, nfds_t(fds.count), timeoutMillis) }
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    public func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
