import Foundation
import GRDB
import GRDBSQLite
import NextUpCore

/// Lean reads for the terminal UI, which must list 100,000 tasks quickly and
/// then show only the few dozen rows on screen: the lists are ordered and
/// filtered by SQLite, and only ids come back.
extension TaskStore {
    /// What the UI's lists are narrowed to: a ``ListFilter`` (the one
    /// definition of the filter language) on the caller's local `today`.
    /// Text matches by ``TextMatch`` (Unicode case folding), as everywhere else.
    public struct ListNarrowing: Sendable, Equatable {
        public var filter: ListFilter
        /// The day `due:` windows count from.
        public var today: DueDate

        public init(_ filter: ListFilter = ListFilter(), today: DueDate = DueDate(epochDay: 0)) {
            self.filter = filter
            self.today = today
        }

        /// Only tasks due in this range (either end open), when set.
        var due: (from: DueDate?, through: DueDate?)? { filter.due.map { $0.range(today: today) } }
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
        let (next, backlog) = queries(sort: sort, narrowing: narrowing, keepDone: keepDone, nowMillis: nowMillis, foldedTitles: false)
        return try database.read { db in
            if narrowing.filter.category != nil || narrowing.filter.tag != nil { ListSQL.registerFold(db) }
            return (try Self.ids(db, next.0, next.1), try Self.ids(db, backlog.0, backlog.1))
        }
    }

    /// One list in display order, with what the TUI's filter narrows it by
    /// in memory: each task's title folded by ``TextMatch/fold(_:)`` (as
    /// stored in `title_fold` when the row was written) and its category.
    /// The folded titles are kept as one run of UTF-8 bytes, not a `String`
    /// each, so that reading 100,000 of them allocates nothing per task.
    public struct FoldedList: Sendable, Equatable {
        public private(set) var ids: [TaskID] = []
        /// The folded titles' UTF-8 bytes, one after another.
        public private(set) var foldedTitleBytes: [UInt8] = []
        /// Where each folded title ends in ``foldedTitleBytes`` (it starts
        /// where the one before ends).
        public private(set) var foldedTitleEnds: [Int] = []
        public private(set) var categories: [String?] = []

        public init() {}

        public var count: Int { ids.count }

        /// Makes room for `count` tasks whose folded titles take `bytes` bytes.
        public mutating func reserveCapacity(_ count: Int, bytes: Int) {
            ids.reserveCapacity(count)
            foldedTitleEnds.reserveCapacity(count)
            categories.reserveCapacity(count)
            foldedTitleBytes.reserveCapacity(bytes)
        }

        /// Appends a task.
        public mutating func append(_ id: TaskID, foldedTitle: UnsafeBufferPointer<UInt8>, category: String?) {
            ids.append(id)
            foldedTitleBytes.append(contentsOf: foldedTitle)
            foldedTitleEnds.append(foldedTitleBytes.count)
            categories.append(category)
        }

        /// Calls `body` with each task's index, folded title bytes and category, in order.
        public func forEach(_ body: (Int, UnsafeBufferPointer<UInt8>, String?) -> Void) {
            foldedTitleBytes.withUnsafeBufferPointer { all in
                var start = 0
                for i in 0..<ids.count {
                    let end = foldedTitleEnds[i]
                    body(i, UnsafeBufferPointer(rebasing: all[start..<end]), categories[i])
                    start = end
                }
            }
        }

        /// The folded title of task `i`.
        public func foldedTitle(_ i: Int) -> String {
            let start = i == 0 ? 0 : foldedTitleEnds[i - 1]
            return String(decoding: foldedTitleBytes[start..<foldedTitleEnds[i]], as: UTF8.self)
        }
    }

    /// ``listIDs(sort:narrowing:keepDone:nowMillis:)`` with each task's
    /// folded title and category, read from the covering index: what the TUI
    /// narrows by the filter's words and `cat:` in memory
    /// (``ListFilter/titleMatches(foldedUTF8:words:)``,
    /// ``ListFilter/categoryMatches(_:)``) while they are typed, instead of
    /// asking SQLite to sort again per key.
    public func listWithFoldedTitles(
        sort: BacklogSort,
        narrowing: ListNarrowing = ListNarrowing(),
        keepDone: Set<TaskID> = [],
        nowMillis: Int64
    ) throws -> (nextUp: FoldedList, backlog: FoldedList) {
        let (next, backlog) = queries(sort: sort, narrowing: narrowing, keepDone: keepDone, nowMillis: nowMillis, foldedTitles: true)
        return try database.read { db in
            if narrowing.filter.category != nil || narrowing.filter.tag != nil { ListSQL.registerFold(db) }
            return (try Self.folded(db, next.0, next.1), try Self.folded(db, backlog.0, backlog.1))
        }
    }

    /// The two lists' queries (Next Up, Backlog), selecting `id` or, with
    /// `foldedTitles`, `id, title_fold, category`.
    private func queries(
        sort: BacklogSort, narrowing: ListNarrowing, keepDone: Set<TaskID>, nowMillis: Int64, foldedTitles: Bool
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
        if let due = narrowing.due {
            narrow += " AND due IS NOT NULL"
            if let from = due.from { and(("due >= ?", [from.description])) }
            if let through = due.through { and(("due <= ?", [through.description])) }
        }
        if let category = narrowing.filter.category { and(ListSQL.category(is: category)) }
        if let tag = narrowing.filter.tag { and(ListSQL.tag(is: tag)) }
        for word in narrowing.filter.words where !word.isEmpty { and(ListSQL.title(contains: word)) }
        // Open tasks come from the partial covering index `task_list`; the few
        // kept done ones are looked up by id.
        let open = ListSQL.open
        let done = "id IN (SELECT value FROM json_each(?)) AND deleted = 0 AND completed_at IS NOT NULL"
        let keep: StatementArguments = ["[" + keepDone.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"]
        let selected = foldedTitles ? "id, title_fold, category" : "id"
        func query(_ list: String, order: String) -> (String, StatementArguments) {
            let columns = "id, next_up, urgency, importance, duration, category, due, created, title_fold"
            if keepDone.isEmpty {
                return ("SELECT \(selected) FROM task WHERE \(list) AND \(open)\(narrow) ORDER BY \(order)", narrowArguments)
            }
            return ("""
                SELECT \(selected) FROM (SELECT \(columns) FROM task WHERE \(list) AND \(open)\(narrow)
                UNION ALL SELECT \(columns) FROM task WHERE \(list) AND \(done)\(narrow)) ORDER BY \(order)
                """, narrowArguments + keep + narrowArguments)
        }
        let next = query("next_up IS NOT NULL", order: ListSQL.nextUpOrder)
        let backlog = query("next_up IS NULL", order: ListSQL.backlogOrder(sort, nowMillis: nowMillis))
        return (next, backlog)
    }

    /// Reads `id, title_fold, category` rows straight from SQLite's C API
    /// (GRDB's `Row` costs a conversion per column, and 76,000 rows are read
    /// on every reload while filtering): the folded title's bytes are copied
    /// into the list, and each distinct category becomes one `String`.
    static func folded(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> FoldedList {
        var out = FoldedList()
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
            guard let text = sqlite3_column_text(raw, column) else { return nil }  // before its length, as SQLite asks
            return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(raw, column)))
        }
        var categories: [(bytes: [UInt8], name: String)] = []
        while true {
            let rc = sqlite3_step(raw)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            guard let idBytes = bytes(0), let id = TaskID(String(decoding: idBytes, as: UTF8.self)) else { continue }
            var category: String?
            if let c = bytes(2) {
                if let known = categories.first(where: { $0.bytes.elementsEqual(c) }) {
                    category = known.name
                } else {
                    let name = String(decoding: c, as: UTF8.self)
                    if categories.count < 64 { categories.append((Array(c), name)) }
                    category = name
                }
            }
            out.append(id, foldedTitle: bytes(1) ?? UnsafeBufferPointer(start: nil, count: 0), category: category)
        }
        return out
    }

    /// Done and deleted tasks, the most recently changed first (ties by id),
    /// at most `limit`: the TUI's history.
    public func historyIDs(limit: Int) throws -> [TaskID] {
        try database.read { db in
            try Self.ids(db, "SELECT id FROM task WHERE deleted = 1 OR completed_at IS NOT NULL ORDER BY modified DESC, id LIMIT ?",
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
