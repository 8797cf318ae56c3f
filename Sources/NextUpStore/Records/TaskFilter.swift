import NextUpCore

/// Which tasks a listing shows (DESIGN.md §4 `list` flags).
public struct TaskFilter: Sendable, Equatable {
    public enum Scope: String, Sendable, CaseIterable {
        /// Open tasks: Next Up in its order, then the Backlog ranked.
        case open
        /// Every task not deleted, done ones included.
        case all
        /// Done, not deleted; most recently completed first.
        case done
        /// Deleted (tombstoned) tasks.
        case deleted
        /// Open tasks with some triage attribute unset.
        case tbd
        /// The Next Up list.
        case nextUp
        /// The Backlog.
        case backlog
    }

    public var scope: Scope
    /// Only tasks in this category, when set; matched by ``TextMatch`` (Unicode
    /// case folding), as the TUI's `cat:` filter matches.
    public var category: String?
    /// Only tasks with this tag (case-insensitive), when set.
    public var tag: String?
    /// Whether each task is read with its field versions. Without them a task's
    /// `versions` is empty and its `modified` zero: for listings that show
    /// neither (the human `list` and `next`), which then skip a fifth of
    /// their work.
    public var withVersions: Bool

    public init(scope: Scope = .open, category: String? = nil, tag: String? = nil, withVersions: Bool = true) {
        self.scope = scope
        self.category = category
        self.tag = tag
        self.withVersions = withVersions
    }
}
