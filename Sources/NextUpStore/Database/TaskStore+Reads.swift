import Foundation
import GRDB
import NextUpCore

extension TaskStore {
    /// The task with this id, deleted or not; nil for one whose creation has
    /// not arrived yet.
    public func task(_ id: TaskID) throws -> TaskItem? {
        try database.read { db in try TaskRow.fetchOne(db, id: id) }.flatMap { $0.versions[.created] == nil ? nil : $0 }
    }

    /// The task named by a full id or a unique prefix of at least 4
    /// characters, case-insensitive (DESIGN.md §4). A task whose creation
    /// has not arrived yet is not found: nothing is written from a half-known row.
    ///
    /// - Throws: ``StoreError/badReference(_:)``, ``StoreError/unknownTask(_:)``,
    ///   ``StoreError/ambiguous(_:matches:)``.
    public func resolve(_ reference: String) throws -> TaskItem {
        let ref = reference.trimmingWhitespace().lowercased()
        guard ref.count >= 4, ref.count <= 36, ref.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw StoreError.badReference(Sanitizer.visible(reference))
        }
        let matches = try database.read { db in
            try TaskRow.fetchAll(db, where: "id >= ? AND id < ? AND \(ListSQL.born) AND \(ListSQL.shown)", arguments: [ref, ref + "\u{7F}"], order: "id LIMIT 11")
        }
        switch matches.count {
        case 0: throw StoreError.unknownTask(ref)
        case 1: return matches[0]
        default:
            if let exact = matches.first(where: { $0.id.rawValue == ref }) { return exact }
            throw StoreError.ambiguous(ref, matches: matches.map(\.id.short))
        }
    }

    /// Tasks for a listing, in the order the listing shows them.
    public func tasks(_ filter: TaskFilter, nowMillis: Int64? = nil) throws -> [TaskItem] {
        let now = nowMillis ?? clock.nowMillis()
        var clause: String
        var args: StatementArguments = []
        // Whole lists are read by a scan of the table (``ListSQL/openScanned``);
        // Next Up, a few hundred tasks at most, through its index.
        let open = ListSQL.openScanned
        switch filter.scope {
        case .open, .backlog: clause = open
        case .nextUp: clause = "next_up IS NOT NULL AND \(ListSQL.open)"
        case .all: clause = "+deleted = 0 AND +\(ListSQL.born)"
        case .done: clause = "+completed_at IS NOT NULL AND +deleted = 0 AND +\(ListSQL.born)"
        case .deleted: clause = "+deleted = 1 AND +\(ListSQL.born) AND \(ListSQL.shown)"
        case .tbd: clause = "\(open) AND \(ListSQL.tbd)"
        }
        if let category = filter.category {
            let (condition, argument) = ListSQL.category(is: category)
            clause += " AND " + condition
            args += argument
        }
        if let tag = filter.tag {
            let (condition, argument) = ListSQL.tag(is: tag)
            clause += " AND " + condition
            args += argument
        }
        let found = try database.read { db in
            if filter.category != nil || filter.tag != nil { ListSQL.registerFold(db) }
            return try TaskRow.fetchAll(db, where: clause, arguments: args, versions: filter.versions)
        }
        switch filter.scope {
        case .open, .all, .tbd:
            let done = found.indices.filter { found[$0].isDone }
                .sorted { (found[$0].completedAt!, found[$0].id) > (found[$1].completedAt!, found[$1].id) }
            let positions = TaskOrdering.nextUpOrder(found) + TaskOrdering.backlogOrder(found, nowMillis: now) + done
            return TaskOrdering.taking(positions, from: found)
        case .nextUp: return TaskOrdering.nextUp(found)
        case .backlog: return TaskOrdering.backlog(found, nowMillis: now)
        case .done: return found.sorted { ($0.completedAt!, $0.id) > ($1.completedAt!, $1.id) }
        case .deleted: return found.sorted { $0.id < $1.id }
        }
    }

    /// The open tasks of ``listIDs(sort:narrowing:keepDone:nowMillis:)`` for
    /// `sort` and `narrowing`, in its order (Next Up, then the Backlog ranked
    /// by Core's ``TaskOrdering``), each made by `make` as it is read from a
    /// task that holds only what the human table shows (``tableFields``): no
    /// notes, no tags, no versions — never the base of a write.
    public func listed<T>(sort: BacklogSort = .score, narrowing: ListNarrowing = ListNarrowing(), nowMillis: Int64? = nil,
                          _ make: (TaskItem) throws -> T) throws -> [T] {
        let columns = "id, " + Self.tableFields.map { $0.spec!.column }.joined(separator: ", ")
        let now = nowMillis ?? clock.nowMillis()
        let (next, backlog) = queries(narrowing: narrowing, keepDone: [], selecting: columns, scanned: true)
        let kinds = Self.tableFields.map { ($0, $0.spec!.kind) }
        return try database.read { db in
            if narrowing.filter.category != nil || narrowing.filter.tag != nil { ListSQL.registerFold(db) }
            var made: [T] = []
            let rows = try Row.fetchCursor(db, sql: next.0, arguments: next.1)
            while let row = try rows.next() {
                guard let id = (row[0] as String?).flatMap(TaskID.init) else { continue }
                var task = TaskItem(id: id)
                Self.restore(kinds, of: &task, from: row, at: 1)
                made.append(try make(task))
            }
            // A Backlog row's rank columns are read once, into its key.
            var keys: [RankKey] = []
            var backlogMade: [T] = []
            let shown = Array(kinds.dropFirst(Self.rankFields.count))
            try Self.rankKeys(db, backlog.0, backlog.1) { key, row in
                keys.append(key)
                var task = TaskItem(id: key.id)
                task.created = key.created
                task.urgency = key.urgency
                task.importance = key.importance
                task.duration = key.duration
                task.due = key.due
                Self.restore(shown, of: &task, from: row, at: 1 + Self.rankFields.count)
                backlogMade.append(try make(task))
            }
            made.reserveCapacity(made.count + backlogMade.count)
            for i in TaskOrdering.order(keys, by: sort, nowMillis: now) { made.append(backlogMade[i]) }
            return made
        }
    }

    /// The fields ``listed(sort:narrowing:nowMillis:_:)`` reads: what the
    /// human table shows of an open task (``rankFields`` first).
    public static let tableFields: [TaskField] = rankFields + [.title, .category, .nextUp]

    /// The Next Up list, in the user's order, with `versions` of each task's
    /// field versions (``TaskFilter/Versions``).
    public func nextUp(versions: TaskFilter.Versions = .all) throws -> [TaskItem] { try tasks(TaskFilter(scope: .nextUp, versions: versions)) }

    /// The Backlog, ranked.
    public func backlog(sort: BacklogSort = .score, nowMillis: Int64? = nil) throws -> [TaskItem] {
        let now = nowMillis ?? clock.nowMillis()
        let open = try database.read { db in
            try TaskRow.fetchAll(db, where: "\(ListSQL.openScanned) AND next_up IS NULL")
        }
        return TaskOrdering.sorted(open, by: sort, nowMillis: now)
    }

    /// The number of open tasks (neither done nor deleted).
    public func openCount() throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM task WHERE \(ListSQL.open)") ?? 0
        }
    }

    /// Every task, deleted ones included, by id (those whose creation is known).
    public func allTasks() throws -> [TaskItem] {
        try database.read { db in
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM task") ?? 0
            return try TaskRow.fetchAll(db, where: ListSQL.born, order: "id", reserving: count)
        }
    }

    /// ``allTasks()``, each task without its versions
    /// (``TaskFilter/Versions/none``: `versions` empty, `modified` zero)
    /// and beside all its versions as the store keeps them, read only when
    /// wanted: what `export` writes.
    public func allTasksWithStoredVersions() throws -> (tasks: [TaskItem], versions: [StoredVersions]) {
        try database.read { db in
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM task") ?? 0
            return try TaskRow.fetchAllWithStoredVersions(db, where: ListSQL.born, order: "id", reserving: count)
        }
    }

    /// Counts for `doctor` and the status bar.
    public struct Counts: Sendable, Equatable {
        public var open = 0, done = 0, deleted = 0, nextUp = 0, tbd = 0, total = 0
    }

    public func counts() throws -> Counts {
        try database.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*),
                       sum(\(ListSQL.open)),
                       sum(deleted = 0 AND completed_at IS NOT NULL AND \(ListSQL.born)),
                       sum(deleted = 1 AND \(ListSQL.born)),
                       sum(\(ListSQL.open) AND next_up IS NOT NULL),
                       sum(\(ListSQL.open) AND \(ListSQL.tbd))
                FROM task WHERE \(ListSQL.born)
                """)!
            var c = Counts()
            c.total = row[0] ?? 0; c.open = row[1] ?? 0; c.done = row[2] ?? 0
            c.deleted = row[3] ?? 0; c.nextUp = row[4] ?? 0; c.tbd = row[5] ?? 0
            return c
        }
    }
}
