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
    /// Which of each task's field versions are read (``Versions``).
    public var versions: Versions

    /// How much of a task's field versions a read brings.
    public enum Versions: Sendable, Equatable {
        /// Every field's version (what any write starts from).
        case all
        /// Only the newest version, under one field that holds it: `modified`
        /// is right and nothing else is there — for listings that print
        /// `modified` but no versions (`list --json`), which then skip most of
        /// the versions' reading and memory. Never a base for a write.
        case newest
        /// None: `versions` empty, `modified` zero — for listings that show
        /// neither (the table of `list` and `next`).
        case none
    }

    public init(scope: Scope = .open, category: String? = nil, tag: String? = nil, versions: Versions = .all) {
        self.scope = scope
        self.category = category
        self.tag = tag
        self.versions = versions
    }
}
