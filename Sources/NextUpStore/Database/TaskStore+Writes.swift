import Foundation
import GRDB
import NextUpCore

/// The mutation API: every change to tasks, named by intent.
///
/// Each method is one IMMEDIATE transaction (so concurrent processes queue
/// rather than fail), conditional (see ``WriteResult/isChange``), and returns
/// what it changed.
extension TaskStore {
    /// What a write did.
    public struct WriteResult: Sendable, Equatable {
        /// The task after the write.
        public let task: TaskItem
        /// The field changes made; empty when the task already held every value.
        public let changes: [FieldChange]
        /// Whether anything changed.
        public var isChange: Bool { !changes.isEmpty }
    }

    /// Runs `body` in one IMMEDIATE transaction with a write session.
    func writeSession<T>(_ body: (inout WriteSession) throws -> T) throws -> T {
        do {
            return try database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    var session = try WriteSession(db, physical: clock)
                    result = try body(&session)
                    try session.finish()
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: location.databaseURL.path, folder: location.folder.path)
        }
    }

    /// Makes a new task from `draft`.
    public func add(_ draft: TaskDraft) throws -> TaskItem {
        try writeSession { session in
            var task = TaskItem(id: TaskID.make())
            var fields = draft.fields
            fields.append((.created, .int(session.now)))
            if draft.nextUp { fields.append((.nextUp, .string(try Self.bottomOfNextUp(session.db)))) }
            _ = try session.write(fields, to: &task)
            return task
        }
    }

    /// Sets fields of one task, and optionally moves it into or out of Next Up.
    /// Fields already holding the value are not written.
    public func edit(_ id: TaskID, set fields: [(TaskField, FieldValue)], nextUp: Bool? = nil) throws -> WriteResult {
        try writeSession { session in
            guard var task = try TaskRow.fetchOne(session.db, id: id) else { throw StoreError.unknownTask(id.rawValue) }
            var all = fields
            if let nextUp, nextUp != task.isNextUp {
                all.append((.nextUp, nextUp ? .string(try Self.bottomOfNextUp(session.db)) : .null))
            }
            let changes = try session.write(all, to: &task)
            return WriteResult(task: task, changes: changes)
        }
    }

    /// Marks a task done (no change when it already is).
    public func complete(_ id: TaskID) throws -> WriteResult {
        try update(id) { task, now in task.isDone ? [] : [(.done, .int(now))] }
    }

    /// Marks a task not done (no change when it is open).
    public func reopen(_ id: TaskID) throws -> WriteResult {
        try update(id) { task, _ in task.isDone ? [(.done, .null)] : [] }
    }

    /// Soft-deletes a task: a versioned tombstone, restorable.
    public func delete(_ id: TaskID) throws -> WriteResult {
        try update(id) { _, _ in [(.deleted, .bool(true))] }
    }

    /// Restores a deleted task.
    public func restore(_ id: TaskID) throws -> WriteResult {
        try update(id) { _, _ in [(.deleted, .bool(false))] }
    }

    /// Puts a task at the bottom of Next Up (no change when it is there).
    public func moveToNextUp(_ id: TaskID) throws -> WriteResult {
        try edit(id, set: [], nextUp: true)
    }

    /// Takes a task out of Next Up, back to the Backlog.
    public func removeFromNextUp(_ id: TaskID) throws -> WriteResult {
        try edit(id, set: [], nextUp: false)
    }

    /// Moves a Next Up task `offset` places (negative: up) within the list,
    /// writing only its own order key — unless two keys are equal (made
    /// concurrently on two replicas), when the keys in between are rewritten.
    public func moveInNextUp(_ id: TaskID, by offset: Int) throws -> WriteResult {
        try writeSession { session in
            let list = TaskOrdering.nextUp(try TaskRow.fetchAll(session.db, where: "next_up IS NOT NULL AND deleted = 0 AND completed_at IS NULL"))
            guard let from = list.firstIndex(where: { $0.id == id }) else {
                guard let task = try TaskRow.fetchOne(session.db, id: id) else { throw StoreError.unknownTask(id.rawValue) }
                return WriteResult(task: task, changes: [])
            }
            let to = min(max(from + offset, 0), list.count - 1)
            var task = list[from]
            guard to != from else { return WriteResult(task: task, changes: []) }
            var rest = list
            rest.remove(at: from)
            let lower = to > 0 ? rest[to - 1].nextUpPosition : nil
            let upper = to < rest.count ? rest[to].nextUpPosition : nil
            if let lower, let upper, lower >= upper {
                // Tied keys: give the whole list fresh keys in the new order.
                rest.insert(task, at: to)
                let keys = OrderKey.keys(count: rest.count, between: nil, nil)
                var moved: [FieldChange] = []
                for (i, var t) in rest.enumerated() {
                    let c = try session.write([(.nextUp, .string(keys[i]))], to: &t)
                    if t.id == id { task = t; moved = c }
                }
                return WriteResult(task: task, changes: moved)
            }
            let changes = try session.write([(.nextUp, .string(OrderKey.between(lower, upper)))], to: &task)
            return WriteResult(task: task, changes: changes)
        }
    }

    /// Applies a computed change to one task.
    func update(_ id: TaskID, _ fields: (TaskItem, Int64) -> [(TaskField, FieldValue)]) throws -> WriteResult {
        try writeSession { session in
            guard var task = try TaskRow.fetchOne(session.db, id: id) else { throw StoreError.unknownTask(id.rawValue) }
            let changes = try session.write(fields(task, session.now), to: &task)
            return WriteResult(task: task, changes: changes)
        }
    }

    /// An order key after every task now in Next Up.
    static func bottomOfNextUp(_ db: Database) throws -> String {
        let last = try String.fetchOne(db, sql: "SELECT max(next_up) FROM task WHERE next_up IS NOT NULL")
        return OrderKey.between(last, nil)
    }
}
