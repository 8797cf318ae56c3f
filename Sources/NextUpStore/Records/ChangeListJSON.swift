import Foundation
import NextUpCore

/// A list of changes of one task — field, value and version — as JSON: the
/// undo journal's `changes` column, and the outbox's before schema v5 (read
/// once more by the v5 migration).
enum ChangeListJSON {
    struct Entry: Codable {
        var f: String
        var v: FieldValue
        var h: Int64
        var r: String
    }

    /// `[Entry]` as JSONEncoder (default options) writes it —
    /// `[{"f":…,"v":…,"h":…,"r":…},…]` — written directly, since the generic
    /// encoder took a fifth of an import of 100,000 tasks (when the outbox
    /// still held values).
    static func encode(_ changes: [FieldChange]) -> String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(changes.count * 96)
        for (i, c) in changes.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"f":"#.utf8)
            JSONBytes.appendString(c.field.rawValue, to: &out, escapingSlashes: true)
            out.append(contentsOf: #","v":"#.utf8)
            JSONBytes.appendValue(c.value, to: &out, escapingSlashes: true)
            out.append(contentsOf: #","h":"#.utf8)
            out.append(contentsOf: String(c.version.timestamp.rawValue).utf8)
            out.append(contentsOf: #","r":"#.utf8)
            JSONBytes.appendString(c.version.replica.rawValue, to: &out, escapingSlashes: true)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(task: String, changes: String) -> [FieldChange] {
        guard let id = TaskID(task) else { return [] }
        if let fast = decodeWritten(task: id, changes: changes) { return fast }
        guard let entries = try? JSONDecoder().decode([Entry].self, from: Data(changes.utf8)) else { return [] }
        return entries.compactMap { e in
            guard let field = TaskField(rawValue: e.f), let replica = ReplicaID(e.r) else { return nil }
            return FieldChange(task: id, field: field, value: e.v,
                               version: Version(timestamp: HybridTimestamp(rawValue: e.h), replica: replica))
        }
    }
}
