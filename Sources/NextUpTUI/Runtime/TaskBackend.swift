import NextUpCore
import NextUpSync

/// Where the UI reads tasks from and sends its writes to: the store, or an
/// in-memory fake in tests.
///
/// Contract: every method may throw; the runtime shows the error in the
/// status line and carries on.
public protocol TaskBackend: AnyObject {
    /// The ids of both lists for `query`, in display order.
    func listIDs(_ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID])
    /// ``listIDs(_:nowMillis:)`` for a screen that shows lists already: a
    /// large read may go in slices, one per call, each short; nil when a
    /// slice was read and the lists are not complete yet (call again for
    /// the next). By default, ``listIDs(_:nowMillis:)``.
    func listIDsInSlices(_ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID])?
    /// Done and deleted tasks, the most recently changed first, at most `limit`.
    func historyIDs(limit: Int) throws -> [TaskID]
    /// Full rows for some ids (unknown ids are skipped).
    func rows(_ ids: [TaskID]) throws -> [TaskItem]
    /// Performs a write, only if every field in `expecting` still holds the
    /// version given (nil: never written); returns the task written, as it is
    /// after the write (for an add, the new one), and whether the write
    /// changed anything (false when the task already held the values — then
    /// there is nothing to undo).
    ///
    /// - Throws: `StaleWrite` (nothing written) when one of them moved on.
    func perform(_ write: Write, expecting: [TaskField: Version?]) throws -> (task: TaskItem, changed: Bool)
    /// This store's replica id (nil when unknown).
    func replica() -> ReplicaID?
    /// A number that changes when another connection commits; nil when
    /// unknown (then every signal reloads).
    func changeToken() throws -> Int?
    /// Called while the filter's prompt is open, after the screen is drawn
    /// (nothing by default): a backend that narrows in memory reads what it
    /// narrows from now, so that the first key typed finds it.
    func prepareToNarrow(_ query: ListQuery, nowMillis: Int64)
    /// The category and tag names in use, one spelling per name (none by
    /// default): what the category and tag prompts complete to.
    func names() throws -> (categories: [String], tags: [String])
    /// The history of task `id`, newest first, in words (none by default).
    func changes(of id: TaskID, utcOffsetSeconds: Int) throws -> [ChangeLine]
    /// What other machines changed since `since` (ms), or since this
    /// machine last looked when nil, marked seen when there is any (nil by
    /// default: nothing to say).
    func away(since: Int64?) throws -> AwaySummary?
    /// Which other machines have this machine's last change (nil by default).
    func delivery() throws -> DeliveryStatus?
}

extension TaskBackend {
    public func listIDsInSlices(_ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID])? {
        try listIDs(query, nowMillis: nowMillis)
    }
    public func prepareToNarrow(_ query: ListQuery, nowMillis: Int64) {}
    public func names() throws -> (categories: [String], tags: [String]) { ([], []) }
    public func changes(of id: TaskID, utcOffsetSeconds: Int) throws -> [ChangeLine] { [] }
    public func away(since: Int64?) throws -> AwaySummary? { nil }
    public func delivery() throws -> DeliveryStatus? { nil }
}
