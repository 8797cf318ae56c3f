import Foundation
import GRDB
import NextUpCore

/// The `history` table (schema v14): one row per change of one field of one
/// task ever written here or merged here — superseded ones included — with
/// its value, version and note (origin, seen version), and when it arrived.
///
/// Invariant: the table is filled in the same transaction as the write or
/// merge that met the change, and is never read as a value: a task's values
/// are its row's. Rows are keyed by (task, field, version); meeting a change
/// again joins the notes (``ChangeNote/joined(_:)``), so replicas that met
/// the same changes in any order hold the same rows, `received` aside (this
/// machine's clock when the change first arrived).
///
/// On the wire of the table: `value` is the value's JSON text, `seen` is
/// NULL (unknown), `''` (the field had never been written) or an encoded
/// ``Version``, which sorts in version order.
enum HistoryTable {
    /// Records `changes`, met at `received` (ms, this machine's clock).
    static func record(_ changes: [FieldChange], received: Int64, _ db: Database) throws {
        guard !changes.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO history(task_id, field, version, value, origin, seen, received) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET
                seen = CASE WHEN excluded.seen IS NULL THEN seen WHEN seen IS NULL OR excluded.seen > seen THEN excluded.seen ELSE seen END,
                origin = CASE WHEN excluded.origin IS NULL THEN origin WHEN origin IS NULL OR excluded.origin < origin THEN excluded.origin ELSE origin END
            WHERE (excluded.seen IS NOT NULL AND (seen IS NULL OR excluded.seen > seen))
               OR (excluded.origin IS NOT NULL AND (origin IS NULL OR excluded.origin < origin))
            """)
        var bytes: [UInt8] = []
        for change in changes {
            bytes.removeAll(keepingCapacity: true)
            JSONText.appendValue(change.value, to: &bytes)
            try statement.execute(arguments: [change.task.rawValue, change.field.rawValue, change.version.encoded,
                                              String(decoding: bytes, as: UTF8.self), change.note?.origin?.rawValue,
                                              seenText(change.note?.seen), received])
        }
    }

    /// The note held for one change; nil when none is held.
    static func note(task: TaskID, field: TaskField, version: Version, _ db: Database) throws -> ChangeNote? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT origin, seen FROM history WHERE task_id = ? AND field = ? AND version = ?"),
                                         arguments: [task.rawValue, field.rawValue, version.encoded]) else { return nil }
        let origin = (row[0] as String?).flatMap(ChangeOrigin.init(rawValue:))
        let seen = seen(row[1] as String?)
        return origin == nil && seen == nil ? nil : ChangeNote(origin: origin, seen: seen)
    }

    /// Every entry held for `task`.
    static func entries(of task: TaskID, _ db: Database) throws -> [HistoryEntry] {
        var out: [HistoryEntry] = []
        let decoder = JSONDecoder()
        let rows = try Row.fetchCursor(db, sql: "SELECT field, version, value, origin, seen FROM history WHERE task_id = ?", arguments: [task.rawValue])
        while let row = try rows.next() {
            guard let field = TaskField(rawValue: row[0]), let version = Version(encoded: row[1]),
                  let value = try? decoder.decode(FieldValue.self, from: Data((row[2] as String).utf8)) else { continue }
            let origin = (row[3] as String?).flatMap(ChangeOrigin.init(rawValue:))
            let seen = seen(row[4] as String?)
            out.append(HistoryEntry(field: field, value: value, version: version,
                                    note: origin == nil && seen == nil ? nil : ChangeNote(origin: origin, seen: seen)))
        }
        return out
    }

    static func seenText(_ seen: ChangeNote.Seen?) -> String? {
        switch seen {
        case nil: nil
        case .nothing: ""
        case .version(let version): version.encoded
        }
    }

    static func seen(_ text: String?) -> ChangeNote.Seen? {
        guard let text else { return nil }
        if text.isEmpty { return .nothing }
        return Version(encoded: text).map { .version($0) }
    }
}
