import Foundation
import GRDB
import NextUpCore

/// Lean reads for the terminal UI, which must list 100,000 tasks quickly and
/// then show only the few dozen rows on screen: the lists are ordered and
/// filtered by SQLite, and only ids come back.
extension TaskStore {
    /// What the UI's lists are narrowed to. Matching is case-insensitive
    /// (Unicode-aware, the same as `String.lowercased()`).
    public struct ListNarrowing: Sendable, Equatable {
        /// Words that must all occur in the title.
        public var words: [String]
        public var category: String?
        public var tbdOnly: Bool

        public init(words: [String] = [], category: String? = nil, tbdOnly: Bool = false) {
            self.words = words
            self.category = category
            self.tbdOnly = tbdOnly
        }
    }

    /// The ids of Next Up (the user's order) and of the Backlog (ranked by
    /// `sort`) for open tasks plus the `keepDone` ones (done in this session,
    /// still listed), narrowed by `narrowing`.
    ///
    /// Contract: the orders are exactly ``TaskOrdering``'s (the backlog score
    /// is computed in SQL with the same formula and the same floating-point
    /// operations as ``BacklogScore``).
    public func listIDs(
        sort: BacklogSort,
        narrowing: ListNarrowing = ListNarrowing(),
        keepDone: Set<TaskID> = [],
        nowMillis: Int64
    ) throws -> (nextUp: [TaskID], backlog: [TaskID]) {
        var narrow = ""
        var narrowArguments: StatementArguments = []
        if narrowing.tbdOnly {
            narrow += " AND (urgency IS NULL OR importance IS NULL OR duration IS NULL OR category IS NULL)"
        }
        if let category = narrowing.category {
            narrow += " AND nextup_fold(category) = ?"
            narrowArguments += [category.lowercased()]
        }
        for word in narrowing.words where !word.isEmpty {
            narrow += " AND instr(nextup_fold(title), ?) > 0"
            narrowArguments += [word.lowercased()]
        }
        // Open tasks come from the partial covering index `task_list`; the few
        // kept done ones are looked up by id.
        let open = "deleted = 0 AND completed_at IS NULL"
        let done = "id IN (SELECT value FROM json_each(?)) AND deleted = 0 AND completed_at IS NOT NULL"
        let keep: StatementArguments = ["[" + keepDone.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"]
        func query(_ list: String, order: String) -> (String, StatementArguments) {
            let columns = "id, next_up, urgency, importance, duration, due, created"
            if keepDone.isEmpty {
                return ("SELECT id FROM task WHERE \(list) AND \(open)\(narrow) ORDER BY \(order)", narrowArguments)
            }
            return ("""
                SELECT id FROM (SELECT \(columns) FROM task WHERE \(list) AND \(open)\(narrow)
                UNION ALL SELECT \(columns) FROM task WHERE \(list) AND \(done)\(narrow)) ORDER BY \(order)
                """, narrowArguments + keep + narrowArguments)
        }
        let next = query("next_up IS NOT NULL", order: "next_up, id")
        let backlog = query("next_up IS NULL", order: Self.backlogOrder(sort, nowMillis: nowMillis))
        return try database.read { db in
            if !narrowing.words.isEmpty || narrowing.category != nil { db.add(function: Self.fold) }
            return (try Self.ids(db, next.0, next.1), try Self.ids(db, backlog.0, backlog.1))
        }
    }

    /// Full tasks for these ids (deleted ones included), in no particular order;
    /// unknown ids are skipped.
    public func tasks(ids: [TaskID]) throws -> [TaskItem] {
        guard !ids.isEmpty else { return [] }
        var out: [TaskItem] = []
        out.reserveCapacity(ids.count)
        try database.read { db in
            var start = 0
            while start < ids.count {
                let chunk = ids[start..<min(ids.count, start + 500)]
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                out += try TaskRow.fetchAll(db, where: "id IN (\(marks))", arguments: StatementArguments(chunk.map(\.rawValue)))
                start += 500
            }
        }
        return out
    }

    /// `ORDER BY` terms for a backlog sort, mirroring ``TaskOrdering/sorted(_:by:nowMillis:)``.
    static func backlogOrder(_ sort: BacklogSort, nowMillis: Int64) -> String {
        switch sort {
        case .score: return "\(scoreSQL(nowMillis: nowMillis)) DESC, created, id"
        case .due: return "due IS NULL, due, created, id"
        case .duration: return "duration IS NULL, duration, created, id"
        case .created: return "created DESC, id"
        }
    }

    /// ``BacklogScore/score(_:nowMillis:)`` as an SQL expression, term by term
    /// in the same order so that the doubles come out identical.
    static func scoreSQL(nowMillis: Int64) -> String {
        let now = "\(nowMillis).0"
        let day = "86400000.0"
        let importance = "(CASE importance WHEN 3 THEN 6.0 WHEN 2 THEN 3.9 WHEN 1 THEN 1.8 ELSE 0.0 END)"
        let urgent = "(CASE WHEN urgency = 'urgent' THEN \(BacklogScore.urgentTerm) ELSE 0.0 END)"
        let overdue = "((\(now) - (CAST(julianday(due) - 2440587.5 AS INTEGER) * \(day))) / \(day))"
        let dueTerm = """
            (CASE WHEN due IS NULL THEN 0.0 WHEN \(overdue) >= 7.0 THEN 1.0 \
            WHEN \(overdue) >= -14.0 THEN (\(overdue) + 14.0) * 0.8 / 21.0 + 0.2 ELSE 0.2 END)
            """
        let age = "min(max(0.0, (\(nowMillis) - created) / \(day)) / 365.0, 1.0)"
        return "(\(importance) + \(urgent) + \(BacklogScore.dueCoefficient) * \(dueTerm) + \(BacklogScore.ageCoefficient) * \(age))"
    }

    static let fold = DatabaseFunction("nextup_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0])?.lowercased()
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
