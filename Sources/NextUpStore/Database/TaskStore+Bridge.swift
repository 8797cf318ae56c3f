import Foundation
import GRDB
import NextUpCore

/// The store-side reads and writes of the phone bridge (DESIGN.md §5b).
///
/// The bridge's memory — per vdir (named by its identity, not its path) and
/// per VTODO, a ``BridgeItem`` — lives in the `bridge_item` and
/// `bridge_written` tables, in the same SQLite file as the tasks, and every
/// edit the bridge makes is saved in the same transaction as the memory that
/// explains it: a crash between the two can never make the bridge apply a
/// foreign change twice or forget one.
extension TaskStore {
    /// The memory of the vdir `vdir`, by `UID`.
    public func bridgeItems(vdir: String) throws -> [String: BridgeItem] {
        try database.read { db in try Self.bridgeItems(vdir: vdir, db) }
    }

    /// The vdirs the bridge remembers, by identity: the path each was last
    /// bridged at, and how many files it holds that the bridge saw.
    public func bridgeVdirs() throws -> [String: (path: String, files: Int)] {
        try database.read { db in
            var out: [String: (path: String, files: Int)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT v.vdir, v.path, (SELECT count(*) FROM bridge_item i WHERE i.vdir = v.vdir AND i.gone = 0) FROM bridge_vdir v
                """) {
                out[row[0]] = (row[1], row[2])
            }
            return out
        }
    }

    /// Records `path` as where the vdir `vdir` is bridged (once per change).
    public func saveBridgeVdirPath(_ path: String, vdir: String) throws {
        let current = try database.read { db in try String.fetchOne(db, sql: "SELECT path FROM bridge_vdir WHERE vdir = ?", arguments: [vdir]) }
        guard current != path else { return }
        try writeSession { session in
            try session.db.execute(sql: "INSERT OR REPLACE INTO bridge_vdir (vdir, path) VALUES (?, ?)", arguments: [vdir, path])
        }
    }

    /// The phone bridge's one write: sets `fields` of task `id` as a local
    /// edit (versioned, conditional, published like any edit), creating the
    /// task with that id when `creating` and the store has none, and saves
    /// `memory` for `vdir` (nil values remove items) — one IMMEDIATE transaction.
    ///
    /// Contract: a field named in `expecting` whose version moved on since the
    /// bridge read it (another process, a peer merge) is not written: the
    /// write throws ``StaleWrite`` and neither the task nor the memory changes,
    /// so the bridge looks again next cycle. A task that appeared meanwhile
    /// when `creating` fails the same way (the bridge expected no versions).
    ///
    /// A field named in `versions` is not a local edit: its value is merged
    /// under that version (a phone's change, versioned as the calendar's,
    /// the same on every machine that takes it), so it holds only when that
    /// version is newer than the field's. Held or not, it is recorded with its
    /// value and published, version unchanged, even once a later change
    /// replaces it (``Outbox/carried(_:)``): every machine then knows the
    /// calendar held that value under that version, and dates it from there
    /// when it meets it in a file again, never from a later `LAST-MODIFIED`.
    ///
    /// - Throws: ``StoreError/unknownTask(_:)`` when the task is absent and
    ///   `creating` is false; ``StaleWrite``; ``TaskInputError`` for a value a
    ///   field does not accept.
    public func bridgeWrite(_ id: TaskID, set fields: [(TaskField, FieldValue)], versions: [TaskField: Version] = [:],
                            creating: Bool = false, expecting: [TaskField: Version?] = [:], vdir: String = "",
                            memory: [String: BridgeItem?] = [:]) throws -> WriteResult {
        try writeSession(origin: .phone) { session in
            var task: TaskItem
            var all = fields.filter { versions[$0.0] == nil }
            var seen = expecting
            if let existing = try TaskRow.fetchOne(session.db, id: id) {
                task = existing
            } else {
                guard creating else { throw StoreError.unknownTask(id.rawValue) }
                task = TaskItem(id: id)
                if !all.contains(where: { $0.0 == .created }) { all.append((.created, .int(session.now))) }
                for (field, _) in fields + all { seen[field] = .some(nil) }
            }
            for (field, expected) in seen.sorted(by: { $0.key < $1.key }) where versions[field] != nil {
                if let expected, task.versions[field] != expected {
                    throw StaleWrite(task: task.id, field: field, current: task.value(of: field), version: task.versions[field])
                }
            }
            for (field, value) in fields where versions[field] != nil && !field.accepts(value) {
                throw TaskInputError("'\(Sanitizer.visible(value.description))' is not a valid \(field.rawValue)")
            }
            var changes = try session.write(all, to: &task, expecting: seen.filter { versions[$0.key] == nil })
            let merged = fields.compactMap { field, value in
                versions[field].map { FieldChange(task: id, field: field, value: value, version: $0, note: ChangeNote(origin: .phone, seen: nil)) }
            }
            if !merged.isEmpty { changes += try session.merge(merged, into: &task, carried: true) }
            try Self.saveBridgeItems(memory, vdir: vdir, session.db)
            return WriteResult(task: task, changes: changes)
        }
    }

    /// Saves memory items of `vdir` (nil: removes them) without touching tasks.
    public func saveBridgeItems(_ memory: [String: BridgeItem?], vdir: String) throws {
        guard !memory.isEmpty else { return }
        try writeSession { session in try Self.saveBridgeItems(memory, vdir: vdir, session.db) }
    }

    /// Gives the memory kept under the identity `old` to `new` (a vdir that
    /// was known by its path before it had an identity of its own); nothing
    /// when `new` already has a memory.
    public func renameBridgeVdir(from old: String, to new: String) throws {
        try writeSession { session in
            let db = session.db
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM bridge_item WHERE vdir = ?", arguments: [new]) == 0 else { return }
            try db.execute(sql: "UPDATE bridge_item SET vdir = ? WHERE vdir = ?", arguments: [new, old])
            try db.execute(sql: "UPDATE bridge_written SET vdir = ? WHERE vdir = ?", arguments: [new, old])
            try db.execute(sql: "UPDATE bridge_vdir SET vdir = ? WHERE vdir = ?", arguments: [new, old])
        }
    }

    static func bridgeItems(vdir: String, _ db: Database) throws -> [String: BridgeItem] {
        var out: [String: BridgeItem] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT uid, file, hash, gone, stamp_device, stamp_inode, stamp_size, stamp_modified, stamp_changed, base, checked
            FROM bridge_item WHERE vdir = ?
            """, arguments: [vdir])
        while let row = try rows.next() {
            var stamp: BridgeItem.Stamp?
            if let device: Int64 = row[4], let inode: Int64 = row[5], let size: Int64 = row[6], let modified: Int64 = row[7],
               let changed: Int64 = row[8] {
                stamp = BridgeItem.Stamp(device: device, inode: inode, size: size, modified: modified, changed: changed)
            }
            let base: Data? = row[9]
            let uid: String = row[0]
            out[uid] = BridgeItem(uid: uid, file: row[1], hash: row[2], gone: row[3], stamp: stamp, base: base.map { [UInt8]($0) },
                                  checked: row[10])
        }
        let written = try Row.fetchCursor(db, sql: "SELECT uid, content FROM bridge_written WHERE vdir = ? ORDER BY uid, seq",
                                          arguments: [vdir])
        while let row = try written.next() {
            let uid: String = row[0]
            let content: Data = row[1]
            out[uid]?.written.append([UInt8](content))
        }
        return out
    }

    static func saveBridgeItems(_ memory: [String: BridgeItem?], vdir: String, _ db: Database) throws {
        for (uid, item) in memory.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "DELETE FROM bridge_written WHERE vdir = ? AND uid = ?", arguments: [vdir, uid])
            guard let item else {
                try db.execute(sql: "DELETE FROM bridge_item WHERE vdir = ? AND uid = ?", arguments: [vdir, uid])
                continue
            }
            try db.execute(sql: """
                INSERT OR REPLACE INTO bridge_item
                    (vdir, uid, file, hash, gone, stamp_device, stamp_inode, stamp_size, stamp_modified, stamp_changed, base, checked)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [vdir, uid, item.file, item.hash, item.gone, item.stamp?.device, item.stamp?.inode,
                                 item.stamp?.size, item.stamp?.modified, item.stamp?.changed, item.base.map { Data($0) }, item.checked])
            for (seq, content) in item.written.suffix(BridgeItem.writtenKept).enumerated() {
                try db.execute(sql: "INSERT INTO bridge_written (vdir, uid, seq, content) VALUES (?, ?, ?, ?)",
                               arguments: [vdir, uid, seq, Data(content)])
            }
        }
    }
}
