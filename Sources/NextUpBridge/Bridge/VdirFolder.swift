import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The vdir on disk: a folder of `*.ics` files, one item each (the
/// vdirsyncer convention). Reads are bounded; writes are atomic.
public struct VdirFolder: Sendable {
    public let url: URL
    /// `url`'s path, made once rather than a URL per file name.
    private let path: String

    /// The clock file times are compared with (ns since the epoch; tests
    /// drive it).
    let clock: @Sendable () -> Int64
    /// Called after a write's temporary file is flushed, before the stamp
    /// check and the rename (tests: a client writing the file meanwhile).
    let beforeReplacing: (@Sendable (String) -> Void)?

    public init(url: URL) {
        self.init(url: url, clock: Self.systemClock)
    }

    init(url: URL, clock: @escaping @Sendable () -> Int64, beforeReplacing: (@Sendable (String) -> Void)? = nil) {
        self.url = url.standardizedFileURL
        path = self.url.path
        self.clock = clock
        self.beforeReplacing = beforeReplacing
    }

    /// The system's real-time clock, in ns since the epoch.
    static let systemClock: @Sendable () -> Int64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// One `.ics` file read, or why it was not.
    public enum Read: Sendable {
        case bytes([UInt8])
        case tooLarge(Int)
        case failed(String)
    }

    /// Throws ``BridgeError/missingFolder(_:)`` unless the folder exists.
    public func checkAvailable() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BridgeError.missingFolder(url.path)
        }
    }

    /// The names of the `.ics` files (no hidden files, no temporary files), sorted.
    public func itemNames() throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { $0.hasSuffix(".ics") && !$0.hasPrefix(".") }
                .sorted()
        } catch {
            throw BridgeError.unreadable(url.path, "\(error.localizedDescription)")
        }
    }

    /// The ``FileStamp`` of `name`, or nil when it cannot be had.
    public func stamp(_ name: String) -> FileStamp? { FileStamp(path: path + "/" + name) }

    /// The stamp of `name` and the part of it worth remembering: nil while
    /// the file is younger than one ``FileStamp/tick`` (a write in place of
    /// the same size could follow unseen), so the next cycle reads it again.
    public func stamps(_ name: String) -> (seen: FileStamp?, kept: FileStamp?) {
        let now = clock()
        let stamp = stamp(name)
        return (stamp, stamp.flatMap { $0.isSettled(at: now) ? $0 : nil })
    }

    /// The bytes of `name`, unless it is larger than `limit`.
    public func read(_ name: String, limit: Int) -> Read {
        let path = url.appendingPathComponent(name).path
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failed("cannot be opened") }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            if data.count > limit {
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? data.count
                return .tooLarge(size)
            }
            return .bytes([UInt8](data))
        } catch {
            return .failed("cannot be read (\(error.localizedDescription))")
        }
    }

    /// Writes `text` to `name` atomically, unless the file moved on: a
    /// temporary file in the folder (`.nextup-*.tmp`, which vdirsyncer
    /// ignores) is written and flushed, then — only while `name`'s stamp is
    /// still `expected` (nil: still absent) — renamed over the old one.
    ///
    /// The stamp is looked at after the slow part (the write and its flush)
    /// and just before the rename, so a client's write (vdirsyncer's) that
    /// lands while the bridge writes is left in place, not replaced by a
    /// file made from what was there before.
    ///
    /// - Returns: false when the file moved on (nothing written).
    public func write(_ text: String, to name: String, ifStill expected: FileStamp?) throws -> Bool {
        let temp = url.appendingPathComponent(".nextup-\(UUID().uuidString).tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BridgeError.unreadable(url.path, "cannot write \(name): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        var written = 0
        var failed = false
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; failed = true; break }
            written += n
        }
        if !failed, fsync(fd) != 0 { failed = true }
        close(fd)
        if !failed {
            beforeReplacing?(name)
            if stamp(name) != expected {
                unlink(temp.path)
                return false
            }
        }
        if failed || rename(temp.path, url.appendingPathComponent(name).path) != 0 {
            let why = String(cString: strerror(errno))
            unlink(temp.path)
            throw BridgeError.unreadable(url.path, "cannot write \(name): \(why)")
        }
        return true
    }

    /// Removes `name` (a task the phone removed, still in this vdir).
    public func remove(_ name: String) throws {
        guard unlink(url.appendingPathComponent(name).path) == 0 || errno == ENOENT else {
            throw BridgeError.unreadable(url.path, "cannot remove \(name): \(String(cString: strerror(errno)))")
        }
    }
}
