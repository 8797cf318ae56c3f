import GRDB
import NextUpCore

/// The list rules of NextUpCore (``TaskOrdering``'s Next Up order,
/// ``TaskItem/isTBD``, ``TextMatch``) in SQL, so that SQLite can filter
/// 100,000 tasks on its covering index instead of Swift decoding every row
/// (the Backlog's ranking is Core's own, on the few columns it reads:
/// `TaskStore.ranked`). Nothing here is a rule of its own: each fragment is
/// generated from Core's definition (its field list, its fold function) or is
/// the SQL spelling of a one-line Core rule named beside it, and
/// `StoreListingTests` checks on random stores that every order and filter
/// gives exactly Core's result.
enum ListSQL {
    /// ``TaskItem/isOpen``: neither done nor deleted. Spelled exactly as the
    /// partial indexes' `WHERE`, so that SQLite uses them.
    static let open = openCondition(unindexed: "")

    /// The same condition, for reads of whole rows of a large part of the
    /// table (a list, an export): each column term written `+column`, so
    /// SQLite reads the table front to back instead of walking a partial
    /// index and looking every row up by id — at 100,000 tasks 6,700 page
    /// reads instead of 109,000 (a read and a copy each).
    static let openScanned = openCondition(unindexed: "+")

    private static func openCondition(unindexed prefix: String) -> String {
        "\(prefix)deleted = 0 AND \(prefix)completed_at IS NULL AND +\(born)"
    }

    /// A task whose creation is known (``TaskRow/unbornCreated``): the only
    /// rows shown, counted, exported or named by an id. Part of ``open``,
    /// written `+created` there so that it leaves SQLite's choice of index
    /// as it was (`created` is in the covering index: no row is looked up for it).
    static let born = "created >= 0"

    /// Not a hidden record (``TaskItem/isHidden``, ``TaskField/hidden``):
    /// the condition of every read that may meet deleted rows (hidden
    /// records are always deleted, so the open lists need not say it).
    static let shown = "json_extract(extra, '$.\(TaskField.hidden.rawValue)') IS NOT 1"

    /// ``TaskItem/isTBD``: some field of ``TaskField/triage`` unset (each
    /// triage field's column carries the field's name).
    static let tbd = "(" + TaskField.triage.compactMap { $0.spec.map { "\($0.column) IS NULL" } }.joined(separator: " OR ") + ")"

    /// ``TaskOrdering/nextUp(_:)``: by order key, then id (ids are canonical
    /// lowercase text, so text order is ``TaskID``'s order).
    static let nextUpOrder = "next_up, id"

    /// ``TaskItem/isDeferred(today:)``'s opposite, as ``ListFilter`` keeps
    /// it for the lists: no defer date, or one on or before `today`.
    static func shown(on today: DueDate) -> (String, StatementArguments) {
        ("(\"defer\" IS NULL OR \"defer\" <= ?)", [today.description])
    }

    /// ``TaskItem/isDeferred(today:)``: a defer date after `today` (`is:later`).
    static func deferred(after today: DueDate) -> (String, StatementArguments) {
        ("\"defer\" > ?", [today.description])
    }

    /// ``TaskItem/isRecurring``.
    static let recurring = "recur IS NOT NULL"

    /// ``TextMatch/fold(_:)`` for SQL: `nextup_fold(x)`. Register it on the
    /// connection (``registerFold(_:)``) before using the fragments below.
    static let fold = DatabaseFunction("nextup_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(TextMatch.fold)
    }

    static func registerFold(_ db: Database) { db.add(function: fold) }

    /// ``TextMatch/matches(_:name:)`` of the category and `name`: a condition and its argument.
    static func category(is name: String) -> (String, StatementArguments) {
        ("nextup_fold(category) = ?", [TextMatch.fold(name)])
    }

    /// ``TaskItem/hasTag(_:)``: a present tag register (in the `extra`
    /// column's JSON) whose name ``TextMatch/matches(_:name:)`` `name`.
    static func tag(is name: String) -> (String, StatementArguments) {
        ("""
         EXISTS (SELECT 1 FROM json_each(task.extra) AS r WHERE r.key LIKE '\(TaskField.tagPrefix)%' AND r.value = 1 \
         AND nextup_fold(substr(r.key, \(TaskField.tagPrefix.count + 1))) = ?)
         """, [TextMatch.fold(name)])
    }

    /// ``TextMatch/contains(_:_:)`` of the title and `word`: a condition and
    /// its argument. Reads `title_fold` (schema v6), the title folded by
    /// ``TextMatch/fold(_:)`` when the row was written, so no row is folded
    /// per query.
    static func title(contains word: String) -> (String, StatementArguments) {
        ("instr(title_fold, ?) > 0", [TextMatch.fold(word)])
    }
}
