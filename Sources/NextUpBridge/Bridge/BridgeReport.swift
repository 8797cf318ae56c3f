/// What one bridge cycle did, for people: counts and one line per file it
/// skipped and why.
public struct BridgeReport: Sendable, Equatable {
    /// Tasks made from VTODOs created elsewhere.
    public var created = 0
    /// Tasks that took a foreign change.
    public var updated = 0
    /// Tasks soft-deleted because their file was removed.
    public var deleted = 0
    /// Tasks where a property changed on both sides and nextup's newer value
    /// was kept.
    public var kept = 0
    /// Files written (new or rewritten).
    public var written = 0
    /// Files removed: tasks removed on the phone that this vdir still held.
    public var removed = 0
    /// Files left alone, each with its reason (one line).
    public var skipped: [String] = []
    /// Other things worth saying (an empty folder, a change retried).
    public var notices: [String] = []

    public init() {}

    /// Whether the cycle changed the store.
    public var changedStore: Bool { created + updated + deleted > 0 }

    /// One summary line, then the skipped files and the notices.
    public var lines: [String] {
        var out = ["vdir: \(created) created, \(updated) updated, \(deleted) deleted, \(written) file\(written == 1 ? "" : "s") written"
                   + (removed > 0 ? ", \(removed) removed" : "")]
        out += skipped.map { "skipped \($0)" }
        out += notices
        return out
    }
}
