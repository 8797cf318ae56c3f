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
        taking(nextUpOrder(tasks), from: tasks)
    }

    /// The positions in `tasks` of ``nextUp(_:)``'s tasks, in its order.
    public static func nextUpOrder(_ tasks: [TaskItem]) -> [Int] {
        tasks.indices.filter { isNextUp(tasks[$0]) }.sorted { nextUpPrecedes(tasks[$0], tasks[$1]) }
    }

    /// The Next Up order of two tasks in Next Up: by order key, then id
    /// (equal keys are made concurrently on two replicas).
    public static func nextUpPrecedes(_ a: TaskItem, _ b: TaskItem) -> Bool {
        let x = a.nextUpPosition!, y = b.nextUpPosition!
        return x != y ? x < y : a.id < b.id
    }

    /// The Backlog, ranked.
    public static func backlog(_ tasks: [TaskItem], by sort: BacklogSort = .score, nowMillis: Int64) -> [TaskItem] {
        sorted(tasks, by: sort, nowMillis: nowMillis, where: isBacklog)
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

    /// Sorts any tasks by a backlog mode (those `included`, when given).
    public static func sorted(_ tasks: [TaskItem], by sort: BacklogSort, nowMillis: Int64,
                              where included: (TaskItem) -> Bool = { _ in true }) -> [TaskItem] {
        taking(order(tasks, by: sort, nowMillis: nowMillis, where: included), from: tasks)
    }

    /// The positions in `tasks` of ``backlog(_:by:nowMillis:)``'s tasks, in its order.
    public static func backlogOrder(_ tasks: [TaskItem], by sort: BacklogSort = .score, nowMillis: Int64) -> [Int] {
        order(tasks, by: sort, nowMillis: nowMillis, where: isBacklog)
    }

    /// The positions in `tasks` of ``sorted(_:by:nowMillis:where:)``'s tasks, in its order.
    public static func order(_ tasks: [TaskItem], by sort: BacklogSort, nowMillis: Int64,
                             where included: (TaskItem) -> Bool = { _ in true }) -> [Int] {
        let chosen = tasks.indices.filter { included(tasks[$0]) }
        return order(chosen.map { RankKey(tasks[$0]) }, by: sort, nowMillis: nowMillis).map { chosen[$0] }
    }

    /// The positions in `keys` in the Backlog order `sort`: the one
    /// definition of the Backlog's orders (``precedes(_:_:_:_:by:)``).
    public static func order(_ keys: [RankKey], by sort: BacklogSort, nowMillis: Int64) -> [Int] {
        let scores = sort == .score ? keys.map { BacklogScore.score($0, nowMillis: nowMillis) } : []
        func score(_ i: Int) -> Double { scores.isEmpty ? 0 : scores[i] }
        return keys.indices.sorted { precedes(keys[$0], score($0), keys[$1], score($1), by: sort) }
    }

    /// `ranked` (keys in the order ``order(_:by:nowMillis:)`` gives for
    /// `sort` at `nowMillis`) without the tasks of `removed`, and with
    /// `added` each at its place: the same order of the keys that remain and
    /// `added`, found by re-placing only `added`. A task of `added` must not
    /// stay in `ranked` (its id is in `removed`, or it was not there).
    public static func replacing(_ removed: Set<TaskID>, with added: [RankKey], in ranked: [RankKey],
                                 by sort: BacklogSort, nowMillis: Int64) -> [RankKey] {
        func score(_ key: RankKey) -> Double { sort == .score ? BacklogScore.score(key, nowMillis: nowMillis) : 0 }
        let placed = order(added, by: sort, nowMillis: nowMillis).map { added[$0] }
        var out: [RankKey] = []
        out.reserveCapacity(ranked.count + added.count)
        // One pass over `ranked`, merging `placed` in.
        var next = placed.startIndex
        var nextScore = placed.first.map(score) ?? 0
        // A few removed tasks (a write's) are compared with each key rather than hashed.
        let few = removed.count <= 8 ? Array(removed) : nil
        for key in ranked where removed.isEmpty || !(few.map { $0.contains(key.id) } ?? removed.contains(key.id)) {
            while next < placed.endIndex, precedes(placed[next], nextScore, key, score(key), by: sort) {
                out.append(placed[next])
                next += 1
                if next < placed.endIndex { nextScore = score(placed[next]) }
            }
            out.append(key)
        }
        out += placed[next...]
        return out
    }

    /// Whether `a` goes before `b` in the Backlog order `sort`, given their
    /// scores (``BacklogScore/score(_:nowMillis:)``, read for `.score`
    /// only). Ties end in ``createdBefore(_:_:)``'s order (the older task,
    /// then the lower id); `.created` itself is newest first, then the lower id.
    static func precedes(_ a: RankKey, _ aScore: Double, _ b: RankKey, _ bScore: Double, by sort: BacklogSort) -> Bool {
        func tie() -> Bool { a.created != b.created ? a.created < b.created : a.id < b.id }
        switch sort {
        case .score: return aScore != bScore ? aScore > bScore : tie()
        case .due: return setFirst(a.due, b.due) ?? tie()
        case .duration: return setFirst(a.duration, b.duration) ?? tie()
        case .created: return a.created != b.created ? a.created > b.created : a.id < b.id
        }
    }

    /// The tie-break of every order: the older task first (by `created`), then
    /// the lower id.
    public static func createdBefore(_ a: TaskItem, _ b: TaskItem) -> Bool {
        a.created != b.created ? a.created < b.created : a.id < b.id
    }

    /// The positions in `tasks` in the order `export` writes them: Next Up
    /// first, in its order (so that an import rebuilds it), then every other
    /// task oldest first (``createdBefore(_:_:)``).
    public static func exportOrder(_ tasks: [TaskItem]) -> [Int] {
        let next = nextUpOrder(tasks)
        var inNextUp = [Bool](repeating: false, count: tasks.count)
        for i in next { inNextUp[i] = true }
        return next + tasks.indices.filter { !inNextUp[$0] }.sorted { createdBefore(tasks[$0], tasks[$1]) }
    }

    /// The tasks at `positions` (each at most once), in that order: moved out
    /// of `tasks` rather than copied, so a whole list is not retained and
    /// released field by field once more.
    public static func taking(_ positions: [Int], from tasks: consuming [TaskItem]) -> [TaskItem] {
        guard let blank = tasks.first.map({ TaskItem(id: $0.id) }) else { return [] }
        return positions.map { i in
            var task = blank
            swap(&task, &tasks[i])
            return task
        }
    }
}
