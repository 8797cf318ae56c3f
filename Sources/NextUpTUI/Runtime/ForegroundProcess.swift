import CNcursesw
import Glibc

/// Runs a program that takes over the terminal while it runs (the notes
/// editor), the way a shell runs a job in the foreground.
///
/// Contract: the child gets a process group of its own, made the terminal's
/// foreground group before it starts (`posix_spawn_file_actions_addtcsetpgrp_np`),
/// so it can read keys and set the terminal's modes without being stopped,
/// and Ctrl-C, Ctrl-Z and size changes reach it alone; its signals start at
/// their defaults. A child that stops anyway (Ctrl-Z) is given the terminal
/// and continued: this process cannot be suspended in its place. When it
/// ends, the terminal's foreground group is this process's again (SIGTTOU
/// ignored while taking it back). Without a terminal in the foreground, the
/// child simply runs in this process's group.
enum ForegroundProcess {
    /// How the child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case killed(signal: Int32)
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Runs `path` with `arguments` (the first is its name) and `environment`,
    /// and waits for it to end. `terminal` is the descriptor of the terminal.
    static func run(_ path: String, arguments: [String], environment: [String: String],
                    terminal: Int32 = 0) throws -> Ending {
        let handOver = isatty(terminal) == 1 && tcgetpgrp(terminal) == getpgrp()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if handOver {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
            // Done in the child after its new group is made, with every
            // signal blocked, so SIGTTOU cannot stop it.
            _ = nu_spawn_take_terminal(&actions, terminal)
        }
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&none)
        for s in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGWINCH] {
            sigaddset(&defaults, s)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var cArguments = arguments.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, &cArguments, &cEnvironment)
        guard rc == 0 else { throw Failure(description: String(cString: strerror(rc))) }
        defer { if handOver { takeTerminalBack(terminal) } }

        var status: Int32 = 0
        while true {
            if waitpid(pid, &status, WUNTRACED) < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "lost track of it (\(String(cString: strerror(errno))))")
            }
            guard status & 0xFF == 0x7F else { break }
            // Stopped: give it the terminal again and let it go on.
            if handOver { withSIGTTOUIgnored { _ = tcsetpgrp(terminal, pid) } }
            kill(-pid, SIGCONT)
        }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: signal)
    }

    /// Makes this process's group the terminal's foreground group again.
    static func takeTerminalBack(_ terminal: Int32) {
        withSIGTTOUIgnored { _ = tcsetpgrp(terminal, getpgrp()) }
    }

    /// A process outside the foreground group that changes the terminal gets
    /// SIGTTOU (which would stop it) unless it ignores it.
    private static func withSIGTTOUIgnored(_ body: () -> Void) {
        let previous = signal(SIGTTOU, SIG_IGN)
        body()
        signal(SIGTTOU, previous)
    }
}
