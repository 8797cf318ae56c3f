import Foundation
import GRDB
import NextUpCore

/// The store-side writes of the phone bridge (DESIGN.md §5b).
///
/// The bridge's memory — per VTODO file, what it last wrote or read — lives
/// in `meta` under ``bridgeKeyPrefix`` (a sync-state key), in the same SQLite
/// file as the tasks, and every edit the bridge makes is saved in the same
/// transaction as the memory that explains it: a crash between the two can
/// never make the bridge apply a foreign change twice or forget one.
extension TaskStore {
    /// Every bridge-state key in `meta` starts with this.
    public static let bridgeKeyPrefix = syncKeyPrefix + "vdir."

    /// The bridge's state entries (key → value), all of them.
    public func bridgeState() throws -> [String: String] {
        try syncState(prefix: Self.bridgeKeyPrefix)
    }

    /// The phone bridge's one write: sets `fields` of task `id` as a local
    /// edit (versioned, conditional, published like any edit), creating the
    /// task with that id when `creating` and the store has none, and saves
    /// `state` (nil values remove entries) — one IMMEDIATE transaction.
    ///
    /// Contract: a field named in `expecting` whose version moved on since the
    /// bridge read it (another process, a peer merge) is not written: the
    /// write throws ``StaleWrite`` and neither the task nor the state changes,
    /// so the bridge looks again next cycle. A task that appeared meanwhile
    /// when `creating` fails the same way (the bridge expected no versions).
    /// Only state keys starting with ``bridgeKeyPrefix`` are accepted.
    ///
    /// - Throws: ``StoreError/unknownTask(_:)`` when the task is absent and
    ///   `creating` is false; ``StaleWrite``; ``TaskInputError`` for a value a
    ///   field does not accept.
    public func bridgeWrite(_ id: TaskID, set fields: [(TaskField, FieldValue)], creating: Bool = false,
                            expecting: [TaskField: Version?] = [:], state: [String: String?] = [:]) throws -> WriteResult {
        precondition(state.keys.allSatisfy { $0.hasPrefix(Self.bridgeKeyPrefix) }, "bridge state keys start with \(Self.bridgeKeyPrefix)")
        return try writeSession { session in
            var task: TaskItem
            var all = fields
            var seen = expecting
            if let existing = try TaskRow.fetchOne(session.db, id: id) {
                task = existing
            } else {
                guard creating else { throw StoreError.unknownTask(id.rawValue) }
                task = TaskItem(id: id)
                if !all.contains(where: { $0.0 == .created }) { all.append((.created, .int(session.now))) }
                for (field, _) in all { seen[field] = .some(nil) }
            }
            let changes = try session.write(all, to: &task, expecting: seen)
            try Self.applySyncState(state, session.db)
            return WriteResult(task: task, changes: changes)
        }
    }

    /// Saves bridge-state entries (nil: removes them) without touching tasks.
    public func saveBridgeState(_ state: [String: String?]) throws {
        precondition(state.keys.allSatisfy { $0.hasPrefix(Self.bridgeKeyPrefix) }, "bridge state keys start with \(Self.bridgeKeyPrefix)")
        try saveSyncState(state)
    }
}
