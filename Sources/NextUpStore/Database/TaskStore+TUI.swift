import Foundation
import GRDB
import NextUpCore

/// Reads for the terminal UI, which lists every open task but shows only the
/// few dozen rows on screen: the lists are ordered and filtered by SQLite,
/// and only ids come back.
extension TaskStore {
    /// What the UI's lists are narrowed to: a ``ListFilter`` (the one
    /// definition of the filter language) on the caller's local `today`
    /// (nil: no `due:` window and no `is:later` passes, no task is left out
    /// as deferred — as ``ListFilter/matches(_:today:)`` without one).
    /// Text matches by ``TextMatch`` (Unicode case folding), as everywhere else.
    public struct ListNarrowing: Sendable, Equatable {
        public var filter: ListFilter
        /// The day `due:` windows count from and defer dates compare with.
        public var today: DueDate?

        public init(_ filter: ListFilter = ListFilter(), today: DueDate? = nil) {
            self.filter = filter
            self.today = today
        }

        /// Only tasks due in this range (either end open), when set.
        var due: (from: DueDate?, through: DueDate?)? { today.flatMap { today in filter.due.map { $0.range(today: today) } } }
    }

    /// The ids of Next Up (the user's order) and of the Backlog (ranked by
    /// `sort`) for open tasks plus the `keepDone` ones (done in this session,
    /// still listed), narrowed by `narrowing`.
    ///
    /// Contract: the orders and filters are exactly ``TaskOrdering``'s,
    /// ``TaskItem/isTBD`` and ``TextMatch``'s (``ListSQL`` generates them from
    /// Core's definitions).
    public func listIDs(
        sort: BacklogSort,
        narrowing: ListNarrowing = ListNarrowing(),
        keepDone: Set<TaskID> = [],
        nowMillis: Int64
    ) throws -> (nextUp: [TaskID], backlog: [TaskID]) {
        let lists = try lists(sort: sort, narrowing: narrowing, keepDone: keepDone, nowMillis: nowMillis)
        return (lists.nextUp, lists.backlog)
    }

    /// The two lists as read at one moment (``lists(sort:narrowing:keepDone:nowMillis:since:)``),
    /// with what a later read needs to bring them up to date: the Backlog's
    /// rank keys and the newest `written` seen.
    public struct Lists: Sendable {
        public let sort: BacklogSort
        public let narrowing: ListNarrowing
        public let keepDone: Set<TaskID>
        /// The moment the Backlog is ranked at (``BacklogScore``'s `now`).
        public let rankedAt: Int64
        /// Whether the lists were read whole (false: brought up to date).
        public let readWhole: Bool
        /// Next Up's ids, in its order.
        public let nextUp: [TaskID]
        /// The Backlog's rank keys, in its order.
        let ranked: [RankKey]
        /// The greatest `written` of the table when read (schema v15).
        let written: Int64
        /// Set while the Backlog is read in slices: `ranked` holds only the
        /// tasks read so far, and these lists are not to be shown.
        let reading: Reading?

        /// Whether these are the whole lists (false: a slice of a read in slices).
        public var isComplete: Bool { reading == nil }

        /// The Backlog's ids, in its order.
        public var backlog: [TaskID] { ranked.map(\.id) }

        /// Where a read in slices stands: slices go in id order.
        struct Reading: Sendable {
            /// The last id read.
            let after: String
            /// The table's greatest `written` when the first slice was read:
            /// the rows written after it are read again at the end.
            let since: Int64
        }
    }

    /// How long a Backlog's ranking is brought up to date before it is read
    /// and ranked whole again (its scores move with the time).
    public static let rerankAfterMillis: Int64 = 15 * 60_000

    /// The lists for `sort`, `narrowing` and `keepDone`
    /// (``listIDs(sort:narrowing:keepDone:nowMillis:)``), brought up to date
    /// from `last` when it can be: only the rows written since it was read
    /// (their `written` is newer) and the tasks that joined or left
    /// `keepDone` are read again, and re-placed in its Backlog with
    /// ``TaskOrdering/replacing(_:with:in:by:nowMillis:)``; Next Up (a day's
    /// list, ordered by SQLite) is read whole.
    ///
    /// `last` is used when it was read for the same sort and narrowing less
    /// than ``rerankAfterMillis`` before `nowMillis`, the table's newest
    /// `written` did not go back, and fewer rows changed than
    /// ``updateLimit(listed:)``; otherwise everything is read and ranked at
    /// `nowMillis`. With `slice`, and `last` read for the same sort and
    /// narrowing, that read goes in slices of at most `slice` Backlog rows,
    /// one per call: each result but the last is not complete
    /// (``Lists/isComplete``) and is passed back as `last` for the next
    /// slice; the last slice also reads again the rows written since the
    /// first one. A caller that asks for no slice finishes a read in slices at once.
    ///
    /// Contract: a complete result equals a whole read ranked at its ``Lists/rankedAt``.
    public func lists(
        sort: BacklogSort,
        narrowing: ListNarrowing = ListNarrowing(),
        keepDone: Set<TaskID> = [],
        nowMillis: Int64,
        since last: Lists? = nil,
        slice: Int? = nil
    ) throws -> Lists {
        try database.read { db in
            if narrowing.filter.category != nil || narrowing.filter.tag != nil { ListSQL.registerFold(db) }
            let newest = try Int64.fetchOne(db, sql: "SELECT coalesce(max(written), 0) FROM task") ?? 0
            let (next, backlog) = queries(narrowing: narrowing, keepDone: keepDone, selecting: Self.rankColumns)
            let nextUp = try Self.ids(db, next.0, next.1)
            func listed(_ ranked: [RankKey], at rankedAt: Int64, whole: Bool, reading: Lists.Reading? = nil) -> Lists {
                Lists(sort: sort, narrowing: narrowing, keepDone: keepDone, rankedAt: rankedAt, readWhole: whole,
                      nextUp: nextUp, ranked: ranked, written: reading?.since ?? newest, reading: reading)
            }
            let sameView = last.map { $0.sort == sort && $0.narrowing == narrowing } ?? false
            if let last, sameView, let reading = last.reading, newest >= reading.since {
                return try readSlice(db, listed, sort: sort, narrowing: narrowing, keepDone: keepDone, newest: newest,
                                     after: reading.after, ranked: last.ranked, at: last.rankedAt, since: reading.since,
                                     slice: slice ?? Int.max)
            }
            if let last, sameView, last.reading == nil, nowMillis - last.rankedAt < Self.rerankAfterMillis,
               nowMillis >= last.rankedAt, newest >= last.written,
               var touched = try Self.written(db, after: last.written, limit: Self.updateLimit(listed: last.ranked.count)) {
                touched.formUnion(keepDone.symmetricDifference(last.keepDone))
                let ranked = try replaced(db, touched, in: last.ranked, sort: sort, narrowing: narrowing, keepDone: keepDone, at: last.rankedAt)
                return listed(ranked, at: last.rankedAt, whole: false)
            }
            if let slice, sameView {
                return try readSlice(db, listed, sort: sort, narrowing: narrowing, keepDone: keepDone, newest: newest,
                                     after: nil, ranked: [], at: nowMillis, since: newest, slice: slice)
            }
            var keys: [RankKey] = []
            try Self.rankKeys(db, backlog.0, backlog.1) { key, _ in keys.append(key) }
            return listed(TaskOrdering.order(keys, by: sort, nowMillis: nowMillis).map { keys[$0] }, at: nowMillis, whole: true)
        }
    }

    /// `ranked` with the tasks of `touched` read again and re-placed.
    private func replaced(_ db: Database, _ touched: Set<TaskID>, in ranked: [RankKey], sort: BacklogSort,
                          narrowing: ListNarrowing, keepDone: Set<TaskID>, at rankedAt: Int64) throws -> [RankKey] {
        var added: [RankKey] = []
        if !touched.isEmpty {
            let (sql, arguments) = queries(narrowing: narrowing, keepDone: keepDone, selecting: Self.rankColumns, among: touched).backlog
            try Self.rankKeys(db, sql, arguments) { key, _ in added.append(key) }
        }
        return TaskOrdering.replacing(touched, with: added, in: ranked, by: sort, nowMillis: rankedAt)
    }

    /// One slice of a read in slices: the next `slice` open Backlog rows
    /// in id order after `after`, placed in `ranked`. After the last slice,
    /// the rows written since `since` (and the kept-done tasks, which the
    /// slices leave out) are read again; when there are too many of them,
    /// the read starts again.
    private func readSlice(
        _ db: Database, _ listed: ([RankKey], Int64, Bool, Lists.Reading?) -> Lists, sort: BacklogSort,
        narrowing: ListNarrowing, keepDone: Set<TaskID>, newest: Int64,
        after: String?, ranked: [RankKey], at rankedAt: Int64, since: Int64, slice: Int
    ) throws -> Lists {
        let (sql, arguments) = queries(narrowing: narrowing, keepDone: [], selecting: Self.rankColumns, scanned: true,
                                       page: (after, slice)).backlog
        var keys: [RankKey] = []
        var count = 0
        var lastID = after
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            count += 1
            lastID = row[0]
            if let key = Self.rankKey(row) { keys.append(key) }
        }
        let ranked = TaskOrdering.replacing([], with: keys, in: ranked, by: sort, nowMillis: rankedAt)
        if count == slice, let lastID { return listed(ranked, rankedAt, true, Lists.Reading(after: lastID, since: since)) }
        guard var touched = try Self.written(db, after: since, limit: Self.updateLimit(listed: ranked.count)) else {
            return try readSlice(db, listed, sort: sort, narrowing: narrowing, keepDone: keepDone, newest: newest,
                                 after: nil, ranked: [], at: rankedAt, since: newest, slice: slice)
        }
        touched.formUnion(keepDone)
        let whole = try replaced(db, touched, in: ranked, sort: sort, narrowing: narrowing, keepDone: keepDone, at: rankedAt)
        return listed(whole, rankedAt, true, nil)
    }

    /// How many changed rows a Backlog of `listed` tasks is brought up to
    /// date with at most; beyond, reading it whole costs less.
    static func updateLimit(listed: Int) -> Int { max(2_000, listed / 4) }

    /// The ids of the rows whose `written` is after `after`, or nil when
    /// there are more than `limit`.
    static func written(_ db: Database, after: Int64, limit: Int) throws -> Set<TaskID>? {
        var out: Set<TaskID> = []
        let cursor = try String.fetchCursor(db, sql: "SELECT id FROM task WHERE written > ? LIMIT ?", arguments: [after, limit + 1])
        while let raw = try cursor.next() {
            if let id = TaskID(raw) { out.insert(id) }
        }
        return out.count > limit ? nil : out
    }

    /// A task of a list in display order, with what the TUI's filter narrows
    /// it by in memory: its title folded by ``TextMatch/fold(_:)`` (as stored
    /// in `title_fold` when the row was written) and its category.
    public struct FoldedTask: Sendable, Equatable {
        public var id: TaskID
        public var foldedTitle: String
        public var category: String?

        public init(id: TaskID, foldedTitle: String, category: String?) {
            self.id = id
            self.foldedTitle = foldedTitle
            self.category = category
        }
    }

    /// ``listIDs(sort:narrowing:keepDone:nowMillis:)`` with each task's
    /// folded title and category, read from the covering index: what the TUI
    /// narrows by the filter's words and `cat:` in memory
    /// (``ListFilter/titleMatches(folded:words:)``,
    /// ``ListFilter/categoryMatches(_:)``) while they are typed, instead of
    /// asking SQLite to sort again per key.
    public func listWithFoldedTitles(
        sort: BacklogSort,
        narrowing: ListNarrowing = ListNarrowing(),
        keepDone: Set<TaskID> = [],
        nowMillis: Int64
    ) throws -> (nextUp: [FoldedTask], backlog: [FoldedTask]) {
        let (next, backlog) = queries(narrowing: narrowing, keepDone: keepDone, selecting: Self.rankColumns + ", title_fold, category")
        let after = 1 + Self.rankFields.count
        return try database.read { db in
            if narrowing.filter.category != nil || narrowing.filter.tag != nil { ListSQL.registerFold(db) }
            var found: [FoldedTask] = []
            let order = try Self.ranked(db, backlog.0, backlog.1, sort: sort, nowMillis: nowMillis) { row, id in
                found.append(FoldedTask(id: id, foldedTitle: row[after] ?? "", category: row[after + 1]))
            }
            return (try Self.folded(db, next.0, next.1, at: after), order.map { found[$0] })
        }
    }

    /// What ``TaskOrdering``'s Backlog orders read of a task.
    static let rankFields: [TaskField] = [.urgency, .importance, .duration, .due, .created]

    /// `id` and the columns of ``rankFields``: what ``ranked(_:_:_:sort:nowMillis:_:)`` reads first.
    static let rankColumns = "id, " + rankFields.map { $0.spec!.column }.joined(separator: ", ")

    /// The order in the Backlog for `sort` of the rows of `sql` (unordered;
    /// ``rankColumns``, then any others), as positions in the order they were
    /// read: Core's ``TaskOrdering/order(_:by:nowMillis:)`` on each row's
    /// ``RankKey``, so that SQLite never sorts the Backlog's rows.
    /// `each` sees every row, with its id.
    static func ranked(_ db: Database, _ sql: String, _ arguments: StatementArguments, sort: BacklogSort, nowMillis: Int64,
                       _ each: (Row, TaskID) throws -> Void) throws -> [Int] {
        var keys: [RankKey] = []
        try rankKeys(db, sql, arguments) { key, row in
            keys.append(key)
            try each(row, key.id)
        }
        return TaskOrdering.order(keys, by: sort, nowMillis: nowMillis)
    }

    /// The ``RankKey`` of each row of `sql` (``rankColumns`` first), with the
    /// row, in the order read.
    static func rankKeys(_ db: Database, _ sql: String, _ arguments: StatementArguments,
                         _ each: (RankKey, Row) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            if let key = rankKey(row) { try each(key, row) }
        }
    }

    /// The ``RankKey`` of a row of ``rankColumns``: the columns of
    /// `rankFields`, in order, read as the field table reads them.
    static func rankKey(_ row: Row) -> RankKey? {
        guard let id = (row[0] as String?).flatMap(TaskID.init) else { return nil }
        return RankKey(
            id: id, created: row[5] ?? 0,
            urgency: (row[1] as String?).flatMap(Urgency.init(rawValue:)),
            importance: (row[2] as Int?).flatMap(Importance.init(rawValue:)),
            duration: (row[3] as Int?).flatMap { try? TaskDuration(minutes: $0) },
            due: (row[4] as String?).flatMap { try? DueDate.parse($0) })
    }

    /// Sets `fields` of `task` from the columns of `row` from `offset` on
    /// (one column per field, of its kind, in order), as the field table
    /// reads them.
    static func restore(_ fields: [(TaskField, FieldSpec.Kind)], of task: inout TaskItem, from row: Row, at offset: Int) {
        for (i, (field, kind)) in fields.enumerated() {
            let value: FieldValue
            switch kind {
            case .text: value = (row[offset + i] as String?).map(FieldValue.string) ?? .null
            case .integer: value = (row[offset + i] as Int64?).map(FieldValue.int) ?? .null
            case .boolean: value = (row[offset + i] as Int64?).map { FieldValue.bool($0 != 0) } ?? .null
            }
            task.restore(field, to: value)
        }
    }

    /// The two lists' queries (Next Up, Backlog), selecting `selected`
    /// (columns of the `task` table). Next Up is ordered by SQLite; the
    /// Backlog is not (its caller ranks it, ``ranked(_:_:_:sort:nowMillis:_:)``).
    /// With `scanned`, open tasks are read by a scan of the table
    /// (``ListSQL/openScanned``), for columns the covering index does not hold.
    /// With `among`, only those tasks, looked up by id. With `page`, the
    /// Backlog is the first `limit` rows in id order with an id after
    /// `after` (read by the table's key, so `scanned` goes with it).
    func queries(
        narrowing: ListNarrowing, keepDone: Set<TaskID>, selecting selected: String, scanned: Bool = false,
        among: Set<TaskID>? = nil, page: (after: String?, limit: Int)? = nil
    ) -> (next: (String, StatementArguments), backlog: (String, StatementArguments)) {
        var narrow = ""
        var narrowArguments: StatementArguments = []
        func and(_ condition: (String, StatementArguments)) {
            narrow += " AND " + condition.0
            narrowArguments += condition.1
        }
        if narrowing.filter.tbdOnly { narrow += " AND " + ListSQL.tbd }
        if narrowing.filter.urgentOnly { narrow += " AND urgency = 'urgent'" }
        if narrowing.filter.nextUpOnly { narrow += " AND next_up IS NOT NULL" }
        if narrowing.filter.recurringOnly { narrow += " AND " + ListSQL.recurring }
        if let today = narrowing.today {
            and(narrowing.filter.laterOnly ? ListSQL.deferred(after: today) : ListSQL.shown(on: today))
        } else if narrowing.filter.laterOnly || narrowing.filter.due != nil {
            narrow += " AND 0"
        }
        if let due = narrowing.due {
            narrow += " AND due IS NOT NULL"
            if let from = due.from { and(("due >= ?", [from.description])) }
            if let through = due.through { and(("due <= ?", [through.description])) }
        }
        if let category = narrowing.filter.category { and(ListSQL.category(is: category)) }
        if let tag = narrowing.filter.tag { and(ListSQL.tag(is: tag)) }
        for word in narrowing.filter.words where !word.isEmpty { and(ListSQL.title(contains: word)) }
        if let among { and(("id IN (SELECT value FROM json_each(?))", [Self.jsonArray(among)])) }
        // Open tasks come from the partial covering index `task_list`; the few
        // kept done ones are looked up by id.
        let open = scanned ? ListSQL.openScanned : ListSQL.open
        let done = "id IN (SELECT value FROM json_each(?)) AND deleted = 0 AND completed_at IS NOT NULL"
        let keep: StatementArguments = [Self.jsonArray(keepDone)]
        func query(_ list: String, order: String?) -> (String, StatementArguments) {
            let orderBy = order.map { " ORDER BY \($0)" } ?? ""
            let columns = "id, next_up, urgency, importance, duration, category, due, created, title_fold"
            if keepDone.isEmpty {
                return ("SELECT \(selected) FROM task WHERE \(list) AND \(open)\(narrow)\(orderBy)", narrowArguments)
            }
            return ("""
                SELECT \(selected) FROM (SELECT \(columns) FROM task WHERE \(list) AND \(open)\(narrow)
                UNION ALL SELECT \(columns) FROM task WHERE \(list) AND \(done)\(narrow))\(orderBy)
                """, narrowArguments + keep + narrowArguments)
        }
        let next = query("next_up IS NOT NULL", order: ListSQL.nextUpOrder)
        guard let page else { return (next, query("next_up IS NULL", order: nil)) }
        if let after = page.after { and(("id > ?", [after])) }
        let backlog = query("next_up IS NULL", order: "id LIMIT \(page.limit)")
        return (next, backlog)
    }

    /// The ids as a JSON array, for `json_each(?)`.
    static func jsonArray(_ ids: Set<TaskID>) -> String {
        "[" + ids.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
    }

    /// Reads rows of `id`, then `title_fold` and `category` at `offset`.
    static func folded(_ db: Database, _ sql: String, _ arguments: StatementArguments, at offset: Int) throws -> [FoldedTask] {
        var out: [FoldedTask] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            guard let id = TaskID(row[0] as String) else { continue }
            out.append(FoldedTask(id: id, foldedTitle: row[offset] ?? "", category: row[offset + 1]))
        }
        return out
    }

    /// Done and deleted tasks, the most recently changed first (ties by id),
    /// at most `limit`: the TUI's history.
    public func historyIDs(limit: Int) throws -> [TaskID] {
        try database.read { db in
            try Self.ids(db, "SELECT id FROM task WHERE (deleted = 1 OR completed_at IS NOT NULL) AND \(ListSQL.born) AND \(ListSQL.shown) ORDER BY modified DESC, id LIMIT ?",
                         [limit])
        }
    }

    /// Full tasks for these ids (deleted ones included), in no particular order;
    /// unknown ids are skipped.
    public func tasks(ids: [TaskID]) throws -> [TaskItem] {
        guard !ids.isEmpty else { return [] }
        return try database.read { db in try TaskRow.fetchAll(db, ids: ids) }
    }

    static func ids(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [TaskID] {
        var out: [TaskID] = []
        let cursor = try String.fetchCursor(db, sql: sql, arguments: arguments)
        while let raw = try cursor.next() {
            if let id = TaskID(raw) { out.append(id) }
        }
        return out
    }
}
