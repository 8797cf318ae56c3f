import Foundation

/// What one signal of a ``ChangeWatcher`` covers: which of its folders saw a
/// change during the burst, and whether someone asked for a signal
/// (``ChangeWatcher/trigger()``). Carries no detail beyond that: the receiver
/// re-reads what it cares about.
public struct FolderChanges: Sendable, Equatable {
    /// Standardized paths of the folders that changed.
    public var folders: Set<String>
    /// True when ``ChangeWatcher/trigger()`` was called during the burst.
    public var requested: Bool

    public init(folders: Set<String> = [], requested: Bool = false) {
        self.folders = folders
        self.requested = requested
    }

    /// Whether `folder` is among those that changed.
    public func contains(_ folder: URL) -> Bool { folders.contains(folder.standardizedFileURL.path) }
}
