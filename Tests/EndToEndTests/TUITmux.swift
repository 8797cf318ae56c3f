import Foundation
import Testing
import NextUpCore

/// A private tmux server running a shell, for driving the real `nextup` TUI
/// the way a person would: `send-keys` to type, `capture-pane` to read.
///
/// Each instance has its own socket (`-L`), no user config, and is killed on
/// deinit, so tests never see each other's panes.
final class TUITmux {
    let socket = "nextup-tui-\(UUID().uuidString.prefix(8))"
    let environment: [String: String]

    /// Starts a server with one session of a plain `sh` at `width`×`height`.
    init(environment: [String: String], width: Int = 100, height: Int = 30) throws {
        var env = environment
        env["PS1"] = "$ "
        env["TERM"] = "xterm-256color"
        env.removeValue(forKey: "TMUX")
        self.environment = env
        try tmux(["-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(width)", "-y", "\(height)", "sh"])
        try tmux(["set-option", "-g", "status", "off"])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// Runs tmux on this server; returns stdout.
    ///
    /// Spawned directly and reaped with `waitpid`, its output going to a file:
    /// the server forked by the first command inherits the child's files and
    /// lives on, which confuses `Process` and would keep a pipe open forever.
    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ["tmux", "-L", socket] + args
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = envp.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        // Default signal handling and no blocked signals: the test runner may
        // ignore SIGHUP, and a shell inheriting that would outlive kill-server.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, "tmux", &actions, &attributes, &cArgs, &cEnv)
        guard rc == 0 else { throw TmuxError(message: "cannot run tmux: \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    struct TmuxError: Error { let message: String }

    /// Types a command line into the shell and presses Enter.
    func run(_ commandLine: String) throws {
        try tmux(["send-keys", "-t", "main", "-l", commandLine])
        try tmux(["send-keys", "-t", "main", "Enter"])
    }

    /// Presses keys by tmux name (`Enter`, `Escape`, `Tab`, `C-u`, `j`…).
    func keys(_ names: String...) throws { try tmux(["send-keys", "-t", "main"] + names) }

    /// Types text literally.
    func type(_ text: String) throws { try tmux(["send-keys", "-t", "main", "-l", text]) }

    /// The visible pane, one string per row.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", "main"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
    }

    func display(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "main", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane until `condition` holds; generous by default because
    /// the machine is noisy. Returns the last screen either way.
    @discardableResult
    func waitForScreen(timeout: Double = 15, _ condition: ([String]) -> Bool) throws -> (ok: Bool, screen: [String]) {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try screen()
        while !condition(last) {
            if Date() > deadline { return (false, last) }
            Thread.sleep(forTimeInterval: 0.1)
            last = try screen()
        }
        return (true, last)
    }

    /// Waits until some row contains `text`; when it never does, records a
    /// failure that shows the screen.
    func expectToSee(_ text: String, timeout: Double = 15, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let seen = try waitForScreen(timeout: timeout) { $0.contains { $0.contains(text) } }
        #expect(seen.ok, "waiting for “\(text)”:\n\(seen.screen.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    /// Waits until some row contains `text`.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 15) throws -> Bool {
        try waitForScreen(timeout: timeout) { $0.contains { $0.contains(text) } }.ok
    }
}

/// Polls any condition with a generous limit.
func eventually(timeout: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        if Date() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.1)
    }
    return true
}
