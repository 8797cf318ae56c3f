#if canImport(Glibc)
import Glibc
#endif

/// The environment variables a command reads, and only those, read with
/// `getenv`: Foundation's `ProcessInfo.processInfo.environment` copies every
/// variable into a dictionary, and its first use cost every command about
/// 0.3 ms (a sixth of `count`'s own work).
///
/// Contract: ``current`` holds each of ``names`` that is set, with its
/// value, and nothing else; a test holds ``names`` to every variable the
/// command line's code reads from an environment dictionary.
enum CommandEnvironment {
    /// Every variable read through ``CommandContext``, the config, the
    /// store's location and ``Terminal``.
    static let names = [
        "HOME", "NEXTUP_HOME", "NEXTUP_CONFIG", "NEXTUP_PEER", "NEXTUP_VDIR",
        "XDG_CONFIG_HOME", "XDG_DATA_HOME", "COLUMNS",
    ]

    /// The variables of ``names`` that are set.
    static var current: [String: String] {
        var environment: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}
