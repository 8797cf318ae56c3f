/// Where a task goes in Next Up: the one placement rule that the store's
/// `placeInNextUp` intent, the TUI's `J`/`K`/`n`/undo and the command line's
/// `edit --before/--after` all use.
///
/// Anchors name tasks, not positions, so a place stays meaningful when the
/// list changed since the caller looked at it (another process or machine
/// reordered it), and `J`/`K` move past exactly the neighbour on screen even
/// when a filter hides tasks in between.
public enum NextUpPlace: Hashable, Sendable {
    /// After the last task.
    case end
    /// Directly after this task, which must be an open Next Up task.
    case after(TaskID)
    /// Directly before this task, which must be an open Next Up task.
    case before(TaskID)
    /// Back between two former neighbours (what an undo asks for): directly
    /// after `after` while it is in Next Up, else directly before `before`
    /// while it is, else at the end. Never fails.
    case between(after: TaskID?, before: TaskID?)
}

/// Why a task cannot go to a ``NextUpPlace``.
public enum NextUpPlacementError: Error, Equatable, Sendable {
    /// `after`/`before` move a task within Next Up; this one is not an open
    /// Next Up task.
    case taskNotInNextUp(TaskID)
    /// The anchor is not an open Next Up task.
    case anchorNotInNextUp(TaskID)
    /// The anchor is the task itself.
    case anchorIsTheTask
}

extension NextUpPlace {
    /// The order keys to write so that `task` stands at this place: the task's
    /// own key first, then — only when the keys around the place are tied
    /// (two replicas that each put a task in Next Up while apart can make the
    /// same key) — new keys for the tied neighbours on the shorter side, so the
    /// move lands exactly where asked and the order of everything else is kept.
    /// Empty when the task already stands there.
    ///
    /// - Parameters:
    ///   - tasks: the tasks that may be in Next Up (any order; those not open
    ///     or not in Next Up are ignored, as ``TaskOrdering/nextUp(_:)`` does).
    ///   - lastKey: the greatest order key in the store (done and deleted
    ///     tasks keep theirs); `.end` goes after it. Nil: after the list's last.
    /// - Throws: ``NextUpPlacementError`` for `.after`/`.before` when the task
    ///   or the anchor is not an open Next Up task, or the anchor is the task.
    public func keys(for task: TaskID, in tasks: [TaskItem], lastKey: String? = nil) throws(NextUpPlacementError) -> [(TaskID, String)] {
        let list = TaskOrdering.nextUp(tasks)
        let from = list.firstIndex { $0.id == task }
        var rest = list
        if let from { rest.remove(at: from) }
        let to: Int
        switch self {
        case .end:
            to = rest.count
        case .after(let anchor), .before(let anchor):
            guard anchor != task else { throw .anchorIsTheTask }
            guard from != nil else { throw .taskNotInNextUp(task) }
            guard let i = rest.firstIndex(where: { $0.id == anchor }) else { throw .anchorNotInNextUp(anchor) }
            if case .after = self { to = i + 1 } else { to = i }
        case .between(let after, let before):
            if let i = rest.firstIndex(where: { $0.id == after }) {
                to = i + 1
            } else if let i = rest.firstIndex(where: { $0.id == before }) {
                to = i
            } else {
                to = rest.count
            }
        }
        if to == from { return [] }
        let lower = to > 0 ? rest[to - 1].nextUpPosition! : nil
        let upper = to < rest.count ? rest[to].nextUpPosition! : nil
        if upper == nil {
            return [(task, OrderKey.between([lower, lastKey].compactMap { $0 }.max(), nil))]
        }
        guard let tied = lower, tied == upper else {
            return [(task, OrderKey.between(lower, upper))]
        }
        // `rest[start..<end]` all hold the key `tied`, and the task goes
        // between `rest[to - 1]` and `rest[to]`, inside that run. Re-key the
        // shorter side of the run together with the task; the other side keeps
        // `tied` (its tasks stay ordered among themselves by id).
        var start = to - 1
        while start > 0 && rest[start - 1].nextUpPosition == tied { start -= 1 }
        var end = to + 1
        while end < rest.count && rest[end].nextUpPosition == tied { end += 1 }
        if to - start <= end - to {
            let below = start > 0 ? rest[start - 1].nextUpPosition : nil
            let moved = rest[start..<to].map(\.id) + [task]
            let keys = OrderKey.keys(count: moved.count, between: below, tied)
            return [(task, keys.last!)] + zip(moved.dropLast(), keys.dropLast()).map { ($0, $1) }
        } else {
            let above = end < rest.count ? rest[end].nextUpPosition : nil
            let moved = [task] + rest[to..<end].map(\.id)
            let keys = OrderKey.keys(count: moved.count, between: tied, above)
            return Array(zip(moved, keys))
        }
    }
}
