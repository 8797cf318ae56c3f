import Foundation
import Glibc

/// Where a long text (a task's notes) is edited: the person's own editor in
/// the app, a fake in tests.
///
/// Contract: returns the text as the person saved it; throws, with plain
/// words, when the editor could not run or failed (then nothing is written).
public protocol TextEditing: AnyObject {
    func edit(_ text: String) throws -> String
}

/// `$EDITOR` (else `vi`) on a private temporary file, with the screen
/// suspended while it runs.
public final class ExternalEditor: TextEditing {
    let suspend: () -> Void
    let resume: () -> Void
    let environment: [String: String]

    public init(environment: [String: String], suspend: @escaping () -> Void, resume: @escaping () -> Void) {
        self.environment = environment
        self.suspend = suspend
        self.resume = resume
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The command line that runs: `$EDITOR` split by the shell (so
    /// `EDITOR="code -w"` works), else `vi`.
    var command: String {
        let editor = (environment["EDITOR"] ?? "").trimmingCharacters(in: .whitespaces)
        return editor.isEmpty ? "vi" : editor
    }

    public func edit(_ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("nextup-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        guard FileManager.default.createFile(atPath: file.path, contents: Data((text.isEmpty ? "" : text + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw Failure(description: "cannot write a temporary file in \(folder.path)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(command) \"$1\"", "sh", file.path]
        process.environment = environment
        suspend()
        defer { resume() }
        do { try process.run() } catch {
            throw Failure(description: "cannot run the editor '\(command)': \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(description: "the editor '\(command)' ended with status \(process.terminationStatus)")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw Failure(description: "the editor left no file")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
