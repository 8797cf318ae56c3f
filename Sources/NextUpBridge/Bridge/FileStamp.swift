#if canImport(Glibc)
import Glibc
#endif
import NextUpStore

/// What `stat` says about a vdir file — device, inode, size, and the
/// modification and status-change times in nanoseconds — recorded when the
/// bridge wrote or read it.
///
/// Contract: a file whose stamp is unchanged is taken to hold the bytes the
/// bridge saw, and is not read again. Any rewrite changes it: a client's
/// atomic replace (vdirsyncer's way) makes a new inode, and a write in place
/// moves the status-change time, which no program can set back. What it
/// cannot see is a write in place of the same size within one tick of the
/// file system's clock after the file's last change, so a stamp is
/// remembered only once the file is older than one ``tick``
/// (``isSettled(at:)``); `nextup sync --full` reads every file regardless.
public struct FileStamp: Hashable, Sendable {
    /// The coarsest clock a file system keeps times by (FAT's two seconds;
    /// ext4's is the kernel's tick): a file changed less than this before a
    /// stat may be written again in place, to the same size, leaving its
    /// stat as it was.
    public static let tick: Int64 = 2_000_000_000

    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64
    public var changed: Int64

    /// The stamp of the file at `path`, or nil when it cannot be had.
    public init?(path: String) {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
        size = Int64(s.st_size)
        modified = Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
        changed = Int64(s.st_ctim.tv_sec) * 1_000_000_000 + Int64(s.st_ctim.tv_nsec)
    }

    /// Whether the file last changed at least one ``tick`` before `now`
    /// (ns since the epoch, read before the stat): any later write moves
    /// the stamp, so it may be trusted.
    public func isSettled(at now: Int64) -> Bool {
        max(modified, changed) <= now - Self.tick
    }

    /// The stamp as the store keeps it.
    public var stored: BridgeItem.Stamp {
        BridgeItem.Stamp(device: Int64(bitPattern: device), inode: Int64(bitPattern: inode), size: size, modified: modified, changed: changed)
    }
}
