import Foundation

/// What a real machine does to a program, made on purpose: a small tmpfs that
/// fills up or turns read-only, a folder only root could read, a process
/// killed with SIGKILL. Mounting needs root: the tests run as root (CI, this
/// project's containers); otherwise through `sudo -n`, which fails with its
/// own clear message when it would ask for a password.
enum MachineFaults {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Runs a system command, as root (directly, or through `sudo -n`).
    @discardableResult
    static func privileged(_ args: [String]) throws -> String {
        let p = Process()
        if getuid() == 0 {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = args
        } else {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/sudo")
            p.arguments = ["-n"] + args
        }
        let result = try NextupProcess.capture(p)
        guard result.status == 0 else {
            throw Failure(description: "\(args.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout
    }

    /// Fills the file system holding `folder` with one file until the kernel
    /// says ENOSPC; returns the file (delete it to give the space back).
    static func fill(_ folder: URL) throws -> URL {
        let filler = folder.appendingPathComponent("filler-\(UUID().uuidString.prefix(8))")
        let fd = open(filler.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot create \(filler.path)") }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x5A, count: 64 * 1024)
        var size = chunk.count
        while size > 0 {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, size) }
            if written < 0 {
                if errno == ENOSPC { size /= 2; continue }
                throw Failure(description: "writing \(filler.path): \(String(cString: strerror(errno)))")
            }
        }
        return filler
    }

    static func freeBytes(_ folder: URL) -> UInt64 {
        var fs = statvfs()
        guard statvfs(folder.path, &fs) == 0 else { return 0 }
        return UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
    }
}

/// A tmpfs of `size` mounted on a fresh folder; unmounted on deinit.
final class SmallDisk {
    let url: URL

    init(at url: URL, size: String) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try MachineFaults.privileged(["mount", "-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", url.path])
    }

    /// Turns the file system read-only, or writable again.
    func remount(readOnly: Bool) throws {
        try MachineFaults.privileged(["mount", "-o", "remount,\(readOnly ? "ro" : "rw")", url.path])
    }

    deinit { _ = try? MachineFaults.privileged(["umount", "-l", url.path]) }
}

extension NextupProcess.Result {
    /// One line on stderr, no crash, no backtrace, no Foundation error code.
    var isOneClearLine: Bool {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: true)
        return status == 1 && lines.count == 1 && lines[0].hasPrefix("nextup: ")
            && !stderr.contains("Fatal error") && !stderr.contains("NSCocoaErrorDomain")
            && !stderr.contains("Error Domain") && !stderr.contains("Code=")
    }
}

/// `PRAGMA integrity_check` of a store's database, through the sqlite3 tool.
func integrityCheck(_ store: URL) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["sqlite3", store.appendingPathComponent("nextup.sqlite").path, "PRAGMA integrity_check;"]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
