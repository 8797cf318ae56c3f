import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock across processes on one store: `flock` on the file
/// `nextup.lock` in the store folder (SQLite keeps its own `fcntl` locks on its
/// files, so the lock is a separate file). The kernel releases it when the
/// holder dies, even by SIGKILL.
public final class StoreLock: @unchecked Sendable {
    public let path: String
    private let fd: Int32

    public init(folder: URL, name: String = "nextup.lock") throws {
        path = folder.appendingPathComponent(name).path
        fd = Glibc.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        if fd < 0 { throw StoreError.notWritable(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { Glibc.close(fd) }

    /// Blocks until this process holds the lock.
    public func lockExclusive() throws {
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw StoreError.database("cannot lock \(path): \(String(cString: strerror(errno)))") }
        }
    }

    /// Takes the lock if free; false when another process holds it.
    public func tryLockExclusive() -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }

    public func unlock() { _ = flock(fd, LOCK_UN) }
}
