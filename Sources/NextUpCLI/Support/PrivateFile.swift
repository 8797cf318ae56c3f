import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writing a file that holds tasks: tasks are private, so the file is created
/// `0600` like the store, and it replaces an old one atomically (a temporary
/// file in the same folder, fsync, rename), so a failed write never leaves a
/// half-written file in place of the user's.
enum PrivateFile {
    /// Writes `pieces` to `path`, one after the other, as one file.
    ///
    /// - Throws: ``CLIError`` naming the path and the system's reason.
    static func write(pieces: some Sequence<some DataProtocol>, to path: String, command: String) throws {
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
        do {
            let file = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
            for data in pieces { try file.write(contentsOf: data) }
        } catch {
            failure = reason(error)
        }
        if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil && rename(temp, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temp)
            throw fail(failure)
        }
    }

    /// The system's reason for a failed write, in plain words.
    static func reason(_ error: Error) -> String {
        let error = error as NSError
        if let posix = error.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return error.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(error.code))) : error.localizedDescription
    }
}
