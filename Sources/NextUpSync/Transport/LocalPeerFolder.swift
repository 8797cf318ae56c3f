import Foundation
import Glibc

/// The real peer folder: a folder on disk (local, NFS, sshfs, synced by
/// Syncthing or Dropbox…). See ``PeerFolder`` for the contract.
///
/// Files are made `0600`. Appends open the file with `O_APPEND`, write every
/// byte, then `fsync`. Replacement writes `.nextup-<name>-<uuid>.tmp`,
/// `fsync`s it, renames it over the target and `fsync`s the folder. A writer
/// killed mid-rewrite leaves that temporary file behind: the file's writer
/// removes its own at its next cycle (``removeLeftovers(of:)``), and any
/// such file older than an hour is removed when the folder is listed, as is
/// a conflict copy renamed aside (`….merged`) over a week ago.
/// (File-sync tools should ignore `.nextup-*.tmp`: see the README.)
public final class LocalPeerFolder: PeerFolder {
    public let url: URL
    public var location: String { url.path }

    public init(url: URL) {
        self.url = url.standardizedFileURL
    }

    /// Whether `name` is one of this type's temporary files.
    public static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".nextup-") && name.hasSuffix(".tmp")
    }

    public func checkAvailable() throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw PeerFolderError.missing(url.path) }
            throw ioError(url.path, "read")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw PeerFolderError.notAFolder(url.path) }
    }

    public func list() throws -> [PeerFileInfo] {
        try checkAvailable()
        guard let dir = opendir(url.path) else { throw ioError(url.path, "list") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            if Self.isTemporary(name) {
                removeIfStale(name, age: Self.staleTemporaryAge)
                continue
            }
            if name.hasSuffix(PeerFileName.mergedSuffix) {
                // A conflict copy merged and renamed aside: its changes were
                // re-published in the renamer's own log before the rename,
                // and every replica reads that log; it is kept for a week
                // after it last changed here (its change time, which the
                // rename sets; its modification time is its writer's, which
                // a sync tool may carry over from long ago), for a person
                // to look at.
                removeIfStale(name, age: Self.mergedCopyAge, since: \.st_ctim)
            }
            names.append(name)
        }
        return names.sorted().compactMap { name in
            var info = stat()
            guard stat(path(name), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return Self.fileInfo(name, info)
        }
    }

    public func info(_ name: String) throws -> PeerFileInfo? {
        try checkAvailable()
        var info = stat()
        guard stat(path(name), &info) == 0 else {
            if errno == ENOENT { return nil }
            throw ioError(path(name), "read")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Self.fileInfo(name, info)
    }

    private static func fileInfo(_ name: String, _ info: stat) -> PeerFileInfo {
        PeerFileInfo(name: name, size: Int64(info.st_size), identity: UInt64(info.st_ino),
                     modified: Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec))
    }

    public func read(_ name: String, at offset: Int64, count: Int) throws -> [UInt8] {
        let fd = open(path(name), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            try checkAvailable()
            throw ioError(path(name), "open")
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if n < 0 { if errno == EINTR { continue }; throw ioError(path(name), "read") }
            if n == 0 { break }
            filled += n
        }
        buffer.removeLast(count - filled)
        return buffer
    }

    public func append(_ bytes: [UInt8], to name: String, truncatingTo length: Int64?) throws -> Int64 {
        try checkAvailable()
        let fd = open(path(name), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioError(path(name), "open") }
        defer { close(fd) }
        if let length {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw ioError(path(name), "read") }
            if Int64(info.st_size) > length {
                guard ftruncate(fd, off_t(length)) == 0 else { throw ioError(path(name), "repair") }
            }
        }
        try writeAll(fd, bytes, path(name))
        guard fsync(fd) == 0 else { throw ioError(path(name), "flush") }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError(path(name), "read") }
        return Int64(info.st_size)
    }

    public func replace(_ name: String, writing produce: (([UInt8]) throws -> Void) throws -> Void) throws -> Int64 {
        try checkAvailable()
        let temporary = path(Self.temporaryPrefix(of: name) + "\(UUID().uuidString.lowercased()).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioError(temporary, "create") }
        var size: Int64 = 0
        do {
            defer { close(fd) }
            try produce { bytes in
                try self.writeAll(fd, bytes, temporary)
                size += Int64(bytes.count)
            }
            guard fsync(fd) == 0 else { throw ioError(temporary, "flush") }
        } catch {
            unlink(temporary)
            throw error
        }
        guard Glibc.rename(temporary, path(name)) == 0 else {
            let failure = ioError(path(name), "replace")
            unlink(temporary)
            throw failure
        }
        syncFolder()
        return size
    }

    public func create(_ name: String, bytes: [UInt8]) throws -> Bool {
        try checkAvailable()
        let temporary = path(Self.temporaryPrefix(of: name) + "\(UUID().uuidString.lowercased()).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioError(temporary, "create") }
        defer { unlink(temporary) }
        do {
            defer { close(fd) }
            try writeAll(fd, bytes, temporary)
            guard fsync(fd) == 0 else { throw ioError(temporary, "flush") }
        }
        // link(2) fails when the name exists: an atomic "create if absent".
        guard Glibc.link(temporary, path(name)) == 0 else {
            if errno == EEXIST { return false }
            throw ioError(path(name), "create")
        }
        syncFolder()
        return true
    }

    public func rename(_ name: String, to newName: String) throws {
        try checkAvailable()
        guard Glibc.rename(path(name), path(newName)) == 0 else { throw ioError(path(name), "rename") }
        syncFolder()
    }

    private static func temporaryPrefix(of name: String) -> String { ".nextup-\(name)-" }

    public func removeLeftovers(of name: String) {
        guard let dir = opendir(url.path) else { return }
        defer { closedir(dir) }
        let prefix = Self.temporaryPrefix(of: name)
        var leftovers: [String] = []
        while let entry = readdir(dir) {
            let entryName = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if entryName.hasPrefix(prefix) && Self.isTemporary(entryName) { leftovers.append(entryName) }
        }
        for leftover in leftovers { unlink(path(leftover)) }
    }

    /// How old one of our temporary files must be before it is taken for
    /// the leftover of a writer killed mid-rewrite, and removed.
    static let staleTemporaryAge: TimeInterval = 3_600

    /// How old a conflict copy renamed aside (`….merged`) must be before it
    /// is removed when the folder is listed.
    static let mergedCopyAge: TimeInterval = 7 * 86_400

    /// Removes `name` when its `since` time (modification by default) is
    /// more than `age` seconds ago.
    private func removeIfStale(_ name: String, age: TimeInterval, since stamp: KeyPath<stat, timespec> = \.st_mtim) {
        var info = stat()
        guard stat(path(name), &info) == 0 else { return }
        if Date().timeIntervalSince1970 - Double(info[keyPath: stamp].tv_sec) > age { unlink(path(name)) }
    }

    // MARK: -

    private func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8], _ path: String) throws {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 { if errno == EINTR { continue }; throw ioError(path, "write") }
            written += n
        }
    }

    private func syncFolder() {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    private func ioError(_ path: String, _ operation: String) -> PeerFolderError {
        .io(path: path, operation: operation, reason: String(cString: strerror(errno)))
    }
}
