import NextUpCore
import NextUpStore

/// How ``StoreBackend`` answers a filter with words or `cat:` while they are
/// typed: the lists without them (the *base*: same sort, other filter terms,
/// kept-done tasks and day) are read with every task's folded title and
/// category, and each key only keeps the base's tasks that pass Core's rules
/// (``ListFilter/titleMatches(folded:words:)``,
/// ``ListFilter/categoryMatches(_:)``) — no SQL, no sorting, no folding of
/// titles per key. When the new filter only narrows the last one
/// (``ListFilter/narrows(_:)``: a letter typed at the end of a word, a word
/// added), the last result is narrowed instead of the base.
///
/// Contract: the lists are exactly the store's listing for the query
/// (``TaskStore/listIDs(sort:narrowing:keepDone:nowMillis:)``, which is
/// Core's ``ListFilter/matches(_:today:)`` in ``TaskOrdering``'s orders),
/// with the Backlog ranked as at the base's reading. The base is read again
/// whenever anything was written to the store since
/// (``TaskStore/writeMark()``: other processes, this UI, the sync engine)
/// and whenever the rest of the query changes. It is asked only for a query
/// with words or `cat:` (``StoreBackend`` lists any other itself); the base is
/// read when the filter's prompt opens (``prepare(_:_:nowMillis:)``) or at the
/// first key that needs it.
final class TitleNarrowing {
    typealias Lists = (nextUp: [TaskStore.FoldedTask], backlog: [TaskStore.FoldedTask])

    private struct Base {
        var query: ListQuery
        var mark: [Int]
        var lists: Lists
    }

    private var base: Base?
    /// The last filter narrowed from `base`, and the positions in the base's
    /// lists of the tasks it kept.
    private var last: (filter: ListFilter, nextUp: [Int], backlog: [Int])?

    func listIDs(_ store: TaskStore, _ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID]) {
        let base = try readBase(store, Self.base(of: query), nowMillis: nowMillis)
        let from = last.flatMap { query.filter.narrows($0.filter) ? (nextUp: $0.nextUp, backlog: $0.backlog) : nil }
        let filter = query.filter
        let words = filter.foldedWords
        var categoryPasses: [String?: Bool] = [:]
        // The tasks are read in place: a task kept is a position, never a copy.
        func narrow(_ list: [TaskStore.FoldedTask], among positions: [Int]?) -> [Int] {
            list.withUnsafeBufferPointer { tasks in
                func passes(_ i: Int) -> Bool {
                    if filter.category != nil {
                        let category = tasks[i].category
                        if let known = categoryPasses[category] {
                            if !known { return false }
                        } else {
                            let passes = filter.categoryMatches(category)
                            categoryPasses[category] = passes
                            if !passes { return false }
                        }
                    }
                    return filter.titleMatches(folded: tasks[i].foldedTitle, words: words)
                }
                return positions.map { $0.filter(passes) } ?? tasks.indices.filter(passes)
            }
        }
        let nextUp = narrow(base.lists.nextUp, among: from?.nextUp)
        let backlog = narrow(base.lists.backlog, among: from?.backlog)
        last = (filter, nextUp, backlog)
        return (nextUp.map { base.lists.nextUp[$0].id }, backlog.map { base.lists.backlog[$0].id })
    }

    /// Reads the base `query` would be narrowed from, unless it is at hand
    /// and nothing was written since: what the runtime calls while the
    /// filter's prompt is open, after drawing, so that the first key typed
    /// finds it.
    func prepare(_ store: TaskStore, _ query: ListQuery, nowMillis: Int64) throws {
        _ = try readBase(store, Self.base(of: query), nowMillis: nowMillis)
    }

    /// `query` without the terms narrowed in memory (words, `cat:`).
    static func base(of query: ListQuery) -> ListQuery {
        var base = query
        base.filter.text = ""
        base.filter.category = nil
        return base
    }

    private func readBase(_ store: TaskStore, _ baseQuery: ListQuery, nowMillis: Int64) throws -> Base {
        let mark = try store.writeMark()
        if let base, base.query == baseQuery, base.mark == mark { return base }
        base = nil
        last = nil
        let lists = try store.listWithFoldedTitles(sort: baseQuery.sort, narrowing: TaskStore.ListNarrowing(baseQuery.filter, today: baseQuery.today),
                                                   keepDone: baseQuery.keepDone, nowMillis: nowMillis)
        let fresh = Base(query: baseQuery, mark: mark, lists: lists)
        base = fresh
        return fresh
    }
}
