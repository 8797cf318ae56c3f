import Foundation
import NextUpCore

/// A list of changes of one task — field, value and version — as JSON
/// (`[{"f":…,"v":…,"h":…,"r":…},…]`): the undo journal's `changes` column,
/// and the outbox's before schema v5 (read once more by the v5 migration).
enum ChangeListJSON {
    struct Entry: Codable {
        var f: String
        var v: FieldValue
        var h: Int64
        var r: String
    }

    static func encode(_ changes: [FieldChange]) -> String {
        let entries = changes.map { Entry(f: $0.field.rawValue, v: $0.value, h: $0.version.timestamp.rawValue, r: $0.version.replica.rawValue) }
        // Encoding strings, integers and booleans cannot fail.
        let data = (try? JSONEncoder().encode(entries)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The changes in `changes`; entries with an unknown field name or a
    /// malformed replica id are dropped, and text that is no change list
    /// reads as none.
    static func decode(task: String, changes: String) -> [FieldChange] {
        guard let id = TaskID(task),
              let entries = try? JSONDecoder().decode([Entry].self, from: Data(changes.utf8)) else { return [] }
        return entries.compactMap { e in
            guard let field = TaskField(rawValue: e.f), let replica = ReplicaID(e.r) else { return nil }
            return FieldChange(task: id, field: field, value: e.v,
                               version: Version(timestamp: HybridTimestamp(rawValue: e.h), replica: replica))
        }
    }
}
