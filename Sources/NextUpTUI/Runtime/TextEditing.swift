import Foundation
import Glibc

/// Where a long text (a task's notes) is edited: the person's own editor in
/// the app, a fake in tests.
///
/// Contract: returns the text as the person saved it, once `check` accepts
/// it. Throws ``EditorFailure`` with plain words when the editor could not
/// run or failed (nothing is written), and ``TextKept`` when `check` refused
/// the saved text: that text is never thrown away, it stays in the file named.
public protocol TextEditing: AnyObject {
    func edit(_ text: String, check: (String) throws -> Void) throws -> String
}

/// The editor could not run, or ended with a failure: nothing was saved.
public struct EditorFailure: Error, CustomStringConvertible {
    public let description: String
}

/// The person saved a text that cannot be kept (too long): it stays in
/// `file`, and `problem` says why it was not taken.
public struct TextKept: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let problem: String
    public var description: String { "\(problem) — what you wrote is kept in \(file)" }
}

/// `$EDITOR` (else `vi`) on a private temporary file, with the screen
/// suspended while it runs. The editor runs in the foreground of the
/// terminal (``ForegroundProcess``), like `git commit`'s: its own process
/// group, the terminal in the modes the shell had, handed back after.
public final class ExternalEditor: TextEditing {
    let suspend: () -> Void
    let resume: () -> Void
    let environment: [String: String]

    public init(environment: [String: String], suspend: @escaping () -> Void, resume: @escaping () -> Void) {
        self.environment = environment
        self.suspend = suspend
        self.resume = resume
    }

    /// The command line that runs: `$EDITOR` split by the shell (so
    /// `EDITOR="vim -u NONE"` works), else `vi`.
    var command: String {
        let editor = (environment["EDITOR"] ?? "").trimmingCharacters(in: .whitespaces)
        return editor.isEmpty ? "vi" : editor
    }

    public func edit(_ text: String, check: (String) throws -> Void) throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("nextup-\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw EditorFailure(description: "cannot make a temporary folder in \(folder.deletingLastPathComponent().path)")
        }
        var keep = false
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        let file = folder.appendingPathComponent("notes.txt")
        guard FileManager.default.createFile(atPath: file.path, contents: Data((text.isEmpty ? "" : text + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw EditorFailure(description: "cannot write a temporary file in \(folder.path)")
        }
        suspend()
        let ending: ForegroundProcess.Ending
        do {
            ending = try ForegroundProcess.run("/bin/sh", arguments: ["sh", "-c", "\(command) \"$1\"", "sh", file.path],
                                               environment: environment)
        } catch {
            resume()
            throw EditorFailure(description: "cannot run the editor '\(command)': \(error)")
        }
        resume()
        switch ending {
        case .exited(0): break
        case .exited(127): throw EditorFailure(description: "the editor '\(command)' was not found (set EDITOR)")
        case .exited(let status): throw EditorFailure(description: "the editor '\(command)' ended with status \(status)")
        case .killed(let signal): throw EditorFailure(description: "the editor '\(command)' was stopped by signal \(signal)")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw EditorFailure(description: "the editor left no file")
        }
        let saved = String(decoding: data, as: UTF8.self)
        do {
            try check(saved)
        } catch {
            keep = true
            throw TextKept(file: file.path, problem: "\(error)")
        }
        return saved
    }
}
