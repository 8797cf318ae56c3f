/// How the Backlog can be sorted.
public enum BacklogSort: String, CaseIterable, Sendable {
    /// By ``BacklogScore``, highest first (the default).
    case score
    /// By due date, soonest first; tasks without one last.
    case due
    /// By duration, shortest first; tasks without one last.
    case duration
    /// By creation time, newest first.
    case created

    /// The next mode, for a key that cycles through them.
    public var next: BacklogSort {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// The two lists' orders (DESIGN.md §2). Deterministic: every comparison ends
/// in a tie-break by creation time, then id.
public enum TaskOrdering {
    /// Which list a task belongs to, if any: open tasks only.
    public static func isBacklog(_ t: TaskItem) -> Bool { t.isOpen && !t.isNextUp }
    public static func isNextUp(_ t: TaskItem) -> Bool { t.isOpen && t.isNextUp }

    /// Next Up in the user's order: by order key, then id.
    public static func nextUp(_ tasks: [TaskItem]) -> [TaskItem] {
        tasks.filter(isNextUp).sorted(by: nextUpPrecedes)
    }

    /// The Next Up order of two tasks in Next Up: by order key, then id
    /// (equal keys are made concurrently on two replicas).
    public static func nextUpPrecedes(_ a: TaskItem, _ b: TaskItem) -> Bool {
        let x = a.nextUpPosition!, y = b.nextUpPosition!
        return x != y ? x < y : a.id < b.id
    }

    /// The Backlog, ranked.
    public static func backlog(_ tasks: [TaskItem], by sort: BacklogSort = .score, nowMillis: Int64) -> [TaskItem] {
        sorted(tasks.filter(isBacklog), by: sort, nowMillis: nowMillis)
    }

    /// Ascending with unset values last; nil when the two are equal.
    static func setFirst<T: Comparable>(_ a: T?, _ b: T?) -> Bool? {
        switch (a, b) {
        case let (a?, b?): return a == b ? nil : a < b
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return nil
        }
    }

    /// Sorts any tasks by a backlog mode.
    public static func sorted(_ tasks: [TaskItem], by sort: BacklogSort, nowMillis: Int64) -> [TaskItem] {
        func tie(_ a: TaskItem, _ b: TaskItem) -> Bool {
            a.created != b.created ? a.created < b.created : a.id < b.id
        }
        switch sort {
        case .score:
            let scored = tasks.map { (BacklogScore.score($0, nowMillis: nowMillis), $0) }
            return scored.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : tie($0.1, $1.1) }.map(\.1)
        case .due:
            return tasks.sorted { setFirst($0.due, $1.due) ?? tie($0, $1) }
        case .duration:
            return tasks.sorted { setFirst($0.duration, $1.duration) ?? tie($0, $1) }
        case .created:
            return tasks.sorted { $0.created != $1.created ? $0.created > $1.created : $0.id < $1.id }
        }
    }
}
