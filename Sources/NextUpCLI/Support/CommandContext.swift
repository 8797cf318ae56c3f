import Foundation
import NextUpBridge
import NextUpConfig
import NextUpCore
import NextUpStore

/// What a command runs against: the environment, the config, the store.
struct CommandContext {
    let environment: [String: String]
    let folders: FolderOptions
    let config: NextUpConfig
    let store: TaskStore

    /// Loads the config and opens the store named by the options and environment.
    static func open(_ options: GlobalOptions, environment: [String: String] = CommandEnvironment.current) throws -> CommandContext {
        try open(options.folders, environment: environment)
    }

    /// The same, for folders named by a parser-free command line (``QuickCommandLine``).
    static func open(_ folders: FolderOptions, environment: [String: String] = CommandEnvironment.current) throws -> CommandContext {
        try open(folders, environment: environment) { try TaskStore.open($0) }
    }

    /// The same, with the store opened by `opening` (given the store's
    /// location): a command that opens it in a way of its own (`import`).
    static func open(_ folders: FolderOptions, environment: [String: String] = CommandEnvironment.current,
                     opening: (StoreLocation) throws -> TaskStore) throws -> CommandContext {
        let config = try loadConfig(environment: environment)
        let location = StoreLocation.resolve(option: folders.store, environment: environment)
        let store = try opening(location)
        StoresKeptUntilExit.shared.keep(store)
        return CommandContext(environment: environment, folders: folders, config: config, store: store)
    }

    /// The config file alone (for a command that reads its input before it
    /// opens the store, so that bad input never creates one).
    static func loadConfig(environment: [String: String] = CommandEnvironment.current) throws -> NextUpConfig {
        try NextUpConfig.load(from: NextUpConfig.defaultURL(environment: environment), environment: environment)
    }

    /// The peer folder, if one is configured: `--peer`, `$NEXTUP_PEER`, the config file.
    var peerFolder: URL? {
        let raw = folders.peer ?? environment["NEXTUP_PEER"].flatMap { $0.isEmpty ? nil : $0 } ?? config.peerFolder
        return raw.map { URL(fileURLWithPath: $0) }
    }

    /// The phone bridge's vdir, if one is configured: `--vdir`, `$NEXTUP_VDIR`, the config file.
    var vdir: URL? {
        let raw = folders.vdir ?? environment["NEXTUP_VDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? config.vdir
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
