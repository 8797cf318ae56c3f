import Foundation

/// Where a store lives (DESIGN.md §3): `--store DIR`, else `$NEXTUP_HOME`,
/// else `$XDG_DATA_HOME/nextup`, else `~/.local/share/nextup`.
public struct StoreLocation: Sendable, Equatable {
    public static let databaseName = "nextup.sqlite"

    /// The store's folder; created `0700` on first use.
    public let folder: URL

    public init(folder: URL) { self.folder = folder.standardizedFileURL }

    /// The SQLite file inside ``folder``.
    public var databaseURL: URL { folder.appendingPathComponent(Self.databaseName) }

    /// Resolves the folder from an explicit option and the environment.
    public static func resolve(option: String?, environment: [String: String]) -> StoreLocation {
        if let option, !option.isEmpty { return StoreLocation(folder: URL(fileURLWithPath: expand(option, environment))) }
        if let home = environment["NEXTUP_HOME"], !home.isEmpty { return StoreLocation(folder: URL(fileURLWithPath: expand(home, environment))) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return StoreLocation(folder: URL(fileURLWithPath: xdg).appendingPathComponent("nextup"))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return StoreLocation(folder: URL(fileURLWithPath: home).appendingPathComponent(".local/share/nextup"))
    }

    /// Expands a leading `~/` (`HOME` from `environment`, else the
    /// account's home folder).
    static func expand(_ path: String, _ environment: [String: String]) -> String {
        path.expandingTilde(home: environment["HOME"] ?? NSHomeDirectory())
    }
}
