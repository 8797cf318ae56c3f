import Foundation

/// Runs the built `nextup` binary as a separate process, as a person's shell
/// would. The binary is `$NEXTUP_BIN` (set by `make test`), else the debug
/// build in this package's `.build` folder.
struct NextupProcess {
    struct Result: CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String
        var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
        /// stdout without the trailing newline.
        var out: String { stdout.trimmingCharacters(in: .newlines) }
    }

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["NEXTUP_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // Tests/EndToEndTests/Support/NextupProcess.swift → package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/nextup")
    }

    /// The environment every run gets: a private HOME and no inherited store,
    /// peer or config, plus `extra`.
    var environment: [String: String]

    init(home: URL, extra: [String: String] = [:]) {
        var env = ProcessInfo.processInfo.environment
        for key in ["NEXTUP_HOME", "NEXTUP_PEER", "NEXTUP_CONFIG", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "COLUMNS"] {
            env.removeValue(forKey: key)
        }
        env["HOME"] = home.path
        env["NO_COLOR"] = "1"
        for (k, v) in extra { env[k] = v }
        environment = env
    }

    /// Runs `nextup args…`, feeding `stdin`, and waits for it.
    @discardableResult
    func run(_ args: [String], stdin: String? = nil, prefix: [String] = []) throws -> Result {
        let p = Process()
        if prefix.isEmpty {
            p.executableURL = Self.binary
            p.arguments = args
        } else {
            p.executableURL = URL(fileURLWithPath: prefix[0])
            p.arguments = Array(prefix.dropFirst()) + [Self.binary.path] + args
        }
        p.environment = environment
        return try Self.capture(p, stdin: stdin ?? "")
    }

    func run(_ args: String...) throws -> Result { try run(args) }

    /// Runs any prepared process to its end, feeding `stdin` (nil: none) and
    /// collecting both outputs — read at once, so a large output cannot block.
    static func capture(_ p: Process, stdin: String? = nil) throws -> Result {
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = stdin.map { _ in Pipe() }
        if let input { p.standardInput = input } else { p.standardInput = FileHandle.nullDevice }
        try p.run()
        if let input, let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A fresh folder under the system temp dir, removed on deinit.
final class Scratch {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nextup-e2e-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    /// `NEXTUP_KEEP_SCRATCH=1` keeps the folder, to look at after a failure.
    deinit { if ProcessInfo.processInfo.environment["NEXTUP_KEEP_SCRATCH"] == nil { try? FileManager.default.removeItem(at: url) } }
    func path(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A JSON value as comparable text: objects with their keys sorted (a
/// dictionary's own description has no fixed order).
func canonicalText(_ value: Any) -> String {
    if let object = value as? [String: Any] {
        return "{" + object.keys.sorted().map { "\($0)=\(canonicalText(object[$0]!))" }.joined(separator: ",") + "}"
    }
    if let array = value as? [Any] { return "[" + array.map(canonicalText).joined(separator: ",") + "]" }
    return "\(value)"
}
