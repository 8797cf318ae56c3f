import Foundation
import GRDB
import NextUpCore

/// Lean reads for the terminal UI, which must list 100,000 tasks quickly and
/// then show only the few dozen rows on screen.
extension TaskStore {
    /// The ids of Next Up (the user's order) and of the Backlog (ranked by
    /// `sort`), for open tasks plus the `keepDone` ones (done in this session,
    /// still listed), narrowed by `include`.
    ///
    /// Contract: the tasks handed to `include` carry only the fields lists are
    /// filtered and ordered by — id, urgency, importance, duration, category,
    /// due, created, next_up, done, and the title when `withTitles` — no notes
    /// and no versions. The orders are exactly ``TaskOrdering``'s.
    public func listIDs(
        sort: BacklogSort,
        keepDone: Set<TaskID> = [],
        nowMillis: Int64,
        withTitles: Bool = false,
        include: (TaskItem) -> Bool = { _ in true }
    ) throws -> (nextUp: [TaskID], backlog: [TaskID]) {
        let title = withTitles ? "title" : "''"
        let sql = """
            SELECT id, urgency, importance, duration, category, due, created, next_up, completed_at, \(title)
            FROM task WHERE deleted = 0 AND (completed_at IS NULL\(keepDone.isEmpty ? "" : " OR id IN (SELECT value FROM json_each(?))"))
            """
        var arguments: StatementArguments = []
        if !keepDone.isEmpty {
            let list = keepDone.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
            arguments = ["[\(list)]"]
        }
        var next: [TaskItem] = []
        var backlog: [TaskItem] = []
        try database.read { db in
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try cursor.next() {
                guard let id = TaskID(row[0] as String) else { continue }
                var t = TaskItem(id: id)
                t.urgency = (row[1] as String?).flatMap(Urgency.init(rawValue:))
                t.importance = (row[2] as Int?).flatMap(Importance.init(rawValue:))
                t.duration = (row[3] as Int?).flatMap { try? TaskDuration(minutes: $0) }
                t.category = row[4]
                t.due = (row[5] as String?).flatMap { try? DueDate.parse($0) }
                t.created = row[6]
                t.nextUpPosition = row[7]
                t.completedAt = row[8]
                t.title = row[9]
                guard include(t) else { continue }
                if t.nextUpPosition != nil { next.append(t) } else { backlog.append(t) }
            }
        }
        next.sort { a, b in a.nextUpPosition! != b.nextUpPosition! ? a.nextUpPosition! < b.nextUpPosition! : a.id < b.id }
        return (next.map(\.id), TaskOrdering.sorted(backlog, by: sort, nowMillis: nowMillis).map(\.id))
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
}
