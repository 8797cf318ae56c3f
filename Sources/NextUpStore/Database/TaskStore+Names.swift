import GRDB
import NextUpCore

/// The category and tag names in use, and the spelling a new one takes.
///
/// Names that are the same but for case (``TextMatch/same(_:_:)``) are one
/// name. A local write that sets a category or adds a tag writes the
/// spelling already in use (``spelledAsInUse(_:task:_:)``): the task's own
/// tag first, else the one of the oldest task (not deleted) holding that
/// name — so `C réunions ÉQUIPE` beside `Réunions équipe` makes no second
/// category, and `--tag home` on a task tagged `Home` no second tag.
///
/// The spellings are read from indexes (schema v13): the categories' cost
/// follows how many there are, the tags' how many tasks carry any.
extension TaskStore {
    /// Every category in use on a task that is not deleted, one spelling per
    /// name (the oldest task's), sorted by ``TextMatch/caseFold(_:)``.
    public func categoryNames() throws -> [String] {
        try database.read { try Self.categoryNames($0) }
    }

    /// Every tag present on a task that is not deleted, one spelling per name
    /// (the oldest task's), sorted by ``TextMatch/caseFold(_:)``.
    public func tagNames() throws -> [String] {
        try database.read { try Self.tagNames($0) }
    }

    /// One seek per spelling (a skip scan of `task_category`, schema v13).
    static func categoryNames(_ db: Database) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: """
            WITH RECURSIVE spelling(name) AS (
                SELECT min(category) FROM task WHERE deleted = 0 AND category IS NOT NULL
                UNION ALL
                SELECT (SELECT min(category) FROM task WHERE deleted = 0 AND category IS NOT NULL AND category > spelling.name)
                FROM spelling WHERE spelling.name IS NOT NULL
            )
            SELECT name, (SELECT min(created) FROM task WHERE deleted = 0 AND category IS NOT NULL AND category = spelling.name AND \(ListSQL.born))
            FROM spelling WHERE name IS NOT NULL
            """)
        return firstSpellings(rows.compactMap { row in (row[1] as Int64?).map { (row[0], $0) } })
    }

    /// Reads only the tasks that carry registers outside the known fields
    /// (`task_extra`, schema v13), tags among them.
    static func tagNames(_ db: Database) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT substr(r.key, \(TaskField.tagPrefix.count + 1)), min(task.created)
            FROM task, json_each(task.extra) AS r
            WHERE task.extra IS NOT NULL AND task.deleted = 0 AND task.\(ListSQL.born)
              AND r.key LIKE '\(TaskField.tagPrefix)%' AND r.value = 1
            GROUP BY r.key
            """)
        return firstSpellings(rows.map { ($0[0], $0[1]) })
    }

    /// Per name, the spelling first used (the smallest `created`, then byte
    /// order), sorted by the name's case fold.
    static func firstSpellings(_ spellings: [(String, Int64)]) -> [String] {
        var first: [String: (String, Int64)] = [:]
        for (spelling, created) in spellings {
            let key = TextMatch.caseFold(spelling)
            if let kept = first[key],
               kept.1 < created || (kept.1 == created && !Array(spelling.utf8).lexicographicallyPrecedes(Array(kept.0.utf8))) { continue }
            first[key] = (spelling, created)
        }
        return first.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }.map(\.value.0)
    }

    /// `fields` with a category, and each tag added, in the spelling in use
    /// for that name (`task`'s own tags first); a tag removed is left as it is.
    static func spelledAsInUse(_ fields: [(TaskField, FieldValue)], task: TaskItem, _ db: Database) throws -> [(TaskField, FieldValue)] {
        var categories: [String]?
        var tags: [String]?
        var out = fields
        for (i, (field, value)) in fields.enumerated() {
            if field == .category, case .string(let name) = value {
                if categories == nil { categories = try categoryNames(db) }
                if let used = categories!.first(where: { TextMatch.same($0, name) }) { out[i].1 = .string(used) }
            } else if let name = field.tagName, value == .bool(true) {
                if let own = task.tags.first(where: { TextMatch.same($0, name) }) {
                    out[i].0 = .tag(own)
                    continue
                }
                if tags == nil { tags = try tagNames(db) }
                if let used = tags!.first(where: { TextMatch.same($0, name) }) { out[i].0 = .tag(used) }
            }
        }
        return out
    }
}
