import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writing a file that holds tasks: tasks are private, so the file is created
/// `0600` like the store, and it replaces an old one atomically (a temporary
/// file in the same folder, fsync, rename), so a failed write never leaves a
/// half-written file in place of the user's.
enum PrivateFile {
    /// Writes `data` to `path`.
    ///
    /// - Throws: ``CLIError`` naming the path and the system's reason.
    static func write(_ data: Data, to path: String, command: String) throws {
        try write(to: path, command: command) { output in
            data.withUnsafeBytes { raw in output.append(raw.bindMemory(to: UInt8.self)) }
        }
    }

    /// Writes what `body` appends to an ``FDOutput`` to `path`, in chunks as
    /// it comes (a whole-set export never holds the file in memory), with the
    /// same guarantees: `0600`, atomic, the old file untouched on failure.
    static func write(to path: String, command: String, _ body: (inout FDOutput) throws -> Void) throws {
        func fail(_ reason: String) -> CLIError { CLIError("\(command): cannot write \(path): \(reason)") }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw fail("it is a folder")
        }
        let url = URL(fileURLWithPath: path)
        let temp = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw fail(String(cString: strerror(errno))) }
        var failure: String?
        var output = FDOutput(fd: fd)
        do {
            try body(&output)
            try output.flush()
            output.finish()
        } catch let error as FDOutput.Failure {
            output.finish()
            failure = error.reason
        } catch {
            output.finish()
            close(fd)
            unlink(temp)
            throw error
        }
        if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil && rename(temp, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temp)
            throw fail(failure)
        }
    }
}
