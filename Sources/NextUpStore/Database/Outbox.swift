import Foundation
import GRDB
import NextUpCore

/// The local change log: every change this replica makes, appended in the same
/// transaction as the change itself, in commit order. Sync uploads from it and
/// prunes what it uploaded. Remote changes merged in are never recorded here.
public enum Outbox {
    struct Entry: Codable {
        var f: String
        var v: FieldValue
        var h: Int64
        var r: String
    }

    static func append(_ changes: [FieldChange], task: TaskID, _ db: Database) throws {
        guard !changes.isEmpty else { return }
        let json = entriesJSON(changes)
        try db.cachedStatement(sql: "INSERT INTO outbox(task_id, changes) VALUES (?, ?)").execute(arguments: [task.rawValue, json])
    }

    /// The `changes` column: `[Entry]` as JSONEncoder (default options)
    /// writes it — `[{"f":…,"v":…,"h":…,"r":…},…]` — written directly, since
    /// the generic encoder took a fifth of an import of 100,000 tasks.
    static func entriesJSON(_ changes: [FieldChange]) -> String {
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

extension TaskStore {
    /// One recorded local write: its sequence number and its changes.
    public struct OutboxRecord: Sendable, Equatable {
        public let seq: Int64
        public let changes: [FieldChange]
    }

    /// Local changes recorded after `seq`, oldest first, at most `limit`.
    public func outbox(after seq: Int64, limit: Int = .max) throws -> [OutboxRecord] {
        try database.read { db in try Self.outbox(db, after: seq, limit: limit) }
    }

    static func outbox(_ db: Database, after seq: Int64, limit: Int = .max) throws -> [OutboxRecord] {
        var out: [OutboxRecord] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT seq, task_id, changes FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?",
                                       arguments: [seq, limit])
        while let row = try rows.next() {
            out.append(OutboxRecord(seq: row[0], changes: Outbox.decode(task: row[1], changes: row[2])))
        }
        return out
    }

    /// The number of local changes recorded after `seq`.
    public func outboxCount(after seq: Int64) throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE seq > ?", arguments: [seq]) ?? 0 }
    }

    /// Forgets recorded local changes up to and including `seq` (they are safe
    /// in this replica's log).
    public func pruneOutbox(through seq: Int64) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM outbox WHERE seq <= ?", arguments: [seq]) }
    }
}
