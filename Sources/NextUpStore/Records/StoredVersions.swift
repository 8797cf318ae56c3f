import NextUpCore

/// A task's field versions as the store keeps them (its row's versions
/// column, ``VersionsColumn``), read only when asked: `export` writes every
/// task's versions without making a map of them per task.
public struct StoredVersions: Sendable {
    let column: String

    init(column: String) {
        self.column = column
    }

    /// The column that holds `versions`.
    public init(_ versions: [TaskField: Version]) {
        column = VersionsColumn.encode(versions)
    }

    /// Each field's version, fields in the byte order of their names (as
    /// JSON's `.sortedKeys` writes them): the versions a task read whole
    /// holds (``TaskItem/versions``), as a list.
    public func sortedByName() -> [(field: TaskField, version: Version)] {
        var replicas = Replicas()
        return sortedByName(&replicas)
    }

    /// ``sortedByName()``, with the replica ids of the tasks listed before.
    public func sortedByName(_ replicas: inout Replicas) -> [(field: TaskField, version: Version)] {
        VersionsColumn.entriesByName(column, replicas: &replicas.known)
    }

    /// The replica ids met in the versions of the tasks listed so far, each
    /// read once (most tasks share a few).
    public struct Replicas {
        var known = VersionsColumn.Replicas()

        public init() {}
    }

    /// The newest of `versions`' timestamps (``TaskItem/modified`` of the
    /// task that holds them).
    public static func newest(_ versions: [(field: TaskField, version: Version)]) -> HybridTimestamp {
        versions.lazy.map(\.version.timestamp).max() ?? .zero
    }
}
