import Foundation

/// Another folder kept in step with the store after every sync cycle — the
/// phone bridge's vdir (DESIGN.md §5b) — without the sync engine knowing what
/// is in it.
///
/// Contract: the engine watches ``folder`` with its one watcher (a change
/// there queues a cycle, like a peer-folder change), and runs ``run()`` after
/// every cycle, under the same locks, so it never overlaps a cycle; when the
/// companion changed the store, the engine publishes those changes to the
/// peer folder in the same call. An error from ``run()`` is reported (a
/// notice, and ``SyncStatus/lastError``), never fatal to the peer sync.
public protocol SyncCompanion: Sendable {
    /// The folder it keeps in step.
    var folder: URL { get }
    /// One pass.
    func run() throws -> SyncCompanionResult
}

/// What one companion pass did.
public struct SyncCompanionResult: Sendable, Equatable {
    /// Whether it wrote tasks.
    public var changedStore: Bool
    /// A summary, one line each (for `nextup sync`).
    public var lines: [String]
    /// What is worth a word even in the background (skipped files, refusals).
    public var notices: [String]

    public init(changedStore: Bool, lines: [String], notices: [String]) {
        self.changedStore = changedStore
        self.lines = lines
        self.notices = notices
    }
}
