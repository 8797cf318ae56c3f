import Foundation
import NextUpBridge
import NextUpConfig
import NextUpCore
import NextUpStore

/// What a command runs against: the environment, the config, the store.
struct CommandContext {
    let environment: [String: String]
    let options: GlobalOptions
    let config: NextUpConfig
    let store: TaskStore

    /// Loads the config (unless given one) and opens the store named by the
    /// options and environment, with `opening` (given the store's location)
    /// when a command opens it in a way of its own (`import`).
    ///
    /// Only a command that writes on purpose (`add`, `import`, `sync`, the
    /// TUI) passes `creating`: any other refuses in one line where there is
    /// no store, so that a mistyped `--store` or `NEXTUP_HOME` never leaves
    /// an empty store behind to be mistaken for the real one.
    static func open(_ options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment,
                     config: NextUpConfig? = nil, creating: Bool = false,
                     opening: (StoreLocation) throws -> TaskStore = { try TaskStore.open($0) }) throws -> CommandContext {
        let config = try config ?? loadConfig(environment: environment)
        let location = StoreLocation.resolve(option: options.store, environment: environment)
        if !creating, let missing = missingStore(location) { throw CLIError(missing) }
        return CommandContext(environment: environment, options: options, config: config, store: try opening(location))
    }

    /// "no nextup store at PATH" when `location` holds no store; nil when it does.
    static func missingStore(_ location: StoreLocation) -> String? {
        if FileManager.default.fileExists(atPath: location.databaseURL.path) { return nil }
        return "no nextup store at \(location.folder.path) (check --store and NEXTUP_HOME; nextup add or import makes one)"
    }

    /// The config file alone (for a command that reads its input before it
    /// opens the store, so that bad input never creates one).
    static func loadConfig(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> NextUpConfig {
        try NextUpConfig.load(from: NextUpConfig.defaultURL(environment: environment), environment: environment)
    }

    /// The peer folder, if one is configured: `--peer`, `$NEXTUP_PEER`, the config file.
    var peerFolder: URL? {
        let raw = options.peer ?? environment["NEXTUP_PEER"].flatMap { $0.isEmpty ? nil : $0 } ?? config.peerFolder
        return raw.map { URL(fileURLWithPath: $0) }
    }

    /// The phone bridge's vdir, if one is configured: `--vdir`, `$NEXTUP_VDIR`, the config file.
    var vdir: URL? {
        let raw = options.vdir ?? environment["NEXTUP_VDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? config.vdir
        return raw.map { URL(fileURLWithPath: $0) }
    }

    /// The phone bridge on the configured vdir, checked to exist; nil when
    /// no vdir is configured.
    ///
    /// - Throws: a one-line ``CLIError`` when the vdir is missing.
    func bridge() throws -> VdirBridge? {
        guard let vdir else { return nil }
        let bridge = VdirBridge(store: store, folder: vdir)
        do { try bridge.folder.checkAvailable() } catch { throw CLIError("\(error)") }
        return bridge
    }

    /// Resolves several references before anything is written, so that one
    /// bad reference changes nothing.
    func resolveAll(_ references: [String]) throws -> [TaskItem] {
        try references.map { try store.resolve($0) }
    }

    /// Call after a command changed tasks: publishes the change to this
    /// replica's log in the peer folder, when one is configured.
    func didChangeTasks() {
        PeerPublishing.publish(self)
    }
}
