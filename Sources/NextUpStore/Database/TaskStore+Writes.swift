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

    /// Runs `body` in one IMMEDIATE transaction with a write session;
    /// `records` (how many tasks the write touches) sizes the page cache for
    /// this transaction only (``withPageCache(forRecords:_:_:)``).
    func writeSession<T>(records: Int = 1, origin: ChangeOrigin? = nil, _ body: (inout WriteSession) throws -> T) throws -> T {
        do {
            return try database.writeWithoutTransaction { db in
                try withPageCache(forRecords: records, db) {
                    var result: T?
                    try db.inTransaction(.immediate) {
                        var session = try WriteSession(db, physical: clock, origin: origin ?? self.origin)
                        result = try body(&session)
                        try session.finish()
                        return .commit
                    }
                    return result!
                }
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: location.databaseURL.path, folder: location.folder.path)
        }
    }

    /// Makes a new task from `draft`.
    public func add(_ draft: TaskDraft) throws -> TaskItem {
        try writeSession { session in
            var task = TaskItem(id: TaskID.make())
            let before = task
            var fields = RecurrenceStep.starting(try Self.spelledAsInUse(draft.fields, task: task, session.db), on: task)
            fields.append((.created, .int(session.now)))
            if draft.nextUp { fields.append((.nextUp, .string(try Self.bottomOfNextUp(session.db)))) }
            let changes = try session.write(fields, to: &task)
            try UndoJournal.record(.add, before: before, changes: changes, at: session.now, session.db)
            return task
        }
    }

    /// Sets fields of one task, and optionally moves it into or out of Next Up
    /// or to a place in it, all in one transaction. Fields already holding the
    /// value are not written.
    ///
    /// - Parameter place: where the task goes in Next Up (see
    ///   ``placeInNextUp(_:_:)``); when given, `nextUp` is ignored.
    /// - Throws: ``StoreError/unknownTask(_:)``; for a place, the errors of
    ///   ``placeInNextUp(_:_:)``.
    ///
    /// - Parameter expecting: per field, the version the caller saw (nil: the
    ///   field had never been written). When one of the fields to change has
    ///   moved on since, nothing is written and ``StaleWrite`` is thrown,
    ///   naming the value the field holds now.
    /// - Parameter thisOnly: on an occurrence of a series, the fields are
    ///   this occurrence's own, not the series' (``RecurrenceStep/editing(_:on:thisOnly:)``).
    public func edit(_ id: TaskID, set fields: [(TaskField, FieldValue)], nextUp: Bool? = nil, place: NextUpPlace? = nil,
                     expecting: [TaskField: Version?] = [:], thisOnly: Bool = false) throws -> WriteResult {
        try writeSession { session in
            guard var task = try TaskRow.fetchOne(session.db, id: id) else { throw StoreError.unknownTask(id.rawValue) }
            let before = task
            var all = RecurrenceStep.editing(RecurrenceStep.starting(try Self.spelledAsInUse(fields, task: task, session.db), on: task),
                                             on: task, thisOnly: thisOnly)
            var others: [(TaskID, String)] = []
            if let place {
                let keys = try Self.keys(placing: task, at: place, session.db)
                if let own = keys.first { all.append((.nextUp, .string(own.1))) }
                others = Array(keys.dropFirst())
            } else if let nextUp, nextUp != task.isNextUp {
                all.append((.nextUp, nextUp ? .string(try Self.bottomOfNextUp(session.db)) : .null))
            }
            let changes = try session.write(all, to: &task, expecting: expecting)
            try UndoJournal.record(.edit, before: before, changes: changes, at: session.now, session.db)
            for (other, key) in others {
                guard var neighbour = try TaskRow.fetchOne(session.db, id: other) else { continue }
                _ = try session.write([(.nextUp, .string(key))], to: &neighbour)
            }
            return WriteResult(task: task, changes: changes)
        }
    }

    // `expecting`, on each write below: as for ``edit(_:set:nextUp:place:expecting:)``.

    /// Marks a task done (no change when it already is).
    public func complete(_ id: TaskID, expecting: [TaskField: Version?] = [:]) throws -> WriteResult {
        try update(id, expecting: expecting) { task, now in task.isDone ? [] : [(.done, .int(now))] }
    }

    /// Marks a task not done (no change when it is open).
    public func reopen(_ id: TaskID, expecting: [TaskField: Version?] = [:]) throws -> WriteResult {
        try update(id, expecting: expecting) { task, _ in task.isDone ? [(.done, .null)] : [] }
    }

    /// Soft-deletes a task: a versioned tombstone, restorable.
    public func delete(_ id: TaskID, expecting: [TaskField: Version?] = [:]) throws -> WriteResult {
        try update(id, expecting: expecting) { _, _ in [(.deleted, .bool(true))] }
    }

    /// Restores a deleted task.
    public func restore(_ id: TaskID, expecting: [TaskField: Version?] = [:]) throws -> WriteResult {
        try update(id, expecting: expecting) { _, _ in [(.deleted, .bool(false))] }
    }

    /// Puts a task at the bottom of Next Up (no change when it is there).
    public func moveToNextUp(_ id: TaskID) throws -> WriteResult {
        try edit(id, set: [], nextUp: true)
    }

    /// Takes a task out of Next Up, back to the Backlog.
    public func removeFromNextUp(_ id: TaskID, expecting: [TaskField: Version?] = [:]) throws -> WriteResult {
        try edit(id, set: [], nextUp: false, expecting: expecting)
    }

    /// Puts a task at `place` in Next Up, in one transaction: the one intent
    /// behind the TUI's `J`/`K` and the command line's `edit --before/--after`.
    /// Writes the task's own order key only — unless keys around the place are
    /// tied (made concurrently on two replicas), when the tied neighbours on
    /// the shorter side get new keys too (``NextUpPlace/keys(for:in:lastKey:)``),
    /// so the task lands exactly at the place asked, every time. No change
    /// when it already stands there. The returned changes are the task's own.
    ///
    /// - Throws: ``StoreError/unknownTask(_:)``, ``StoreError/notInNextUp(_:title:state:)``
    ///   (`after`/`before` with a task or an anchor that is not an open Next Up
    ///   task), ``StoreError/besideItself``.
    public func placeInNextUp(_ id: TaskID, _ place: NextUpPlace, expecting: [TaskField: Version?] = [:]) throws -> WriteResult {
        try edit(id, set: [], place: place, expecting: expecting)
    }

    /// The keys that put `task` at `place`, read from the open Next Up list.
    static func keys(placing task: TaskItem, at place: NextUpPlace, _ db: Database) throws -> [(TaskID, String)] {
        let list = try TaskRow.fetchAll(db, where: "next_up IS NOT NULL AND \(ListSQL.open)")
        let last = try lastNextUpKey(db)
        do throws(NextUpPlacementError) {
            return try place.keys(for: task.id, in: list, lastKey: last)
        } catch {
            switch error {
            case .taskNotInNextUp:
                throw StoreError.notInNextUp(task.id.short, title: Sanitizer.visible(task.title), state: Self.whereIs(task))
            case .anchorNotInNextUp(let id):
                guard let anchor = try TaskRow.fetchOne(db, id: id) else { throw StoreError.unknownTask(id.rawValue) }
                throw StoreError.notInNextUp(id.short, title: Sanitizer.visible(anchor.title), state: Self.whereIs(anchor))
            case .anchorIsTheTask:
                throw StoreError.besideItself
            }
        }
    }

    /// Where a task that is not in Next Up is, in words.
    static func whereIs(_ task: TaskItem) -> String {
        task.deleted ? "deleted" : task.isDone ? "done" : "in the Backlog"
    }

    /// Applies a computed change to one task.
    func update(_ id: TaskID, expecting: [TaskField: Version?] = [:],
                _ fields: (TaskItem, Int64) -> [(TaskField, FieldValue)]) throws -> WriteResult {
        try writeSession { session in
            guard var task = try TaskRow.fetchOne(session.db, id: id) else { throw StoreError.unknownTask(id.rawValue) }
            let before = task
            let changes = try session.write(fields(task, session.now), to: &task, expecting: expecting)
            try UndoJournal.record(.edit, before: before, changes: changes, at: session.now, session.db)
            return WriteResult(task: task, changes: changes)
        }
    }

    /// An order key after every task now in Next Up.
    static func bottomOfNextUp(_ db: Database) throws -> String {
        OrderKey.between(try lastNextUpKey(db), nil)
    }

    /// The greatest order key in use; done and deleted tasks keep theirs, so
    /// a task put at the end never ties with one of them coming back.
    static func lastNextUpKey(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT max(next_up) FROM task WHERE next_up IS NOT NULL")
    }
}
