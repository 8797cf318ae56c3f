import NextUpCore

extension TaskStore {
    /// What ``undoLastChange()`` did.
    public enum UndoOutcome: Sendable, Equatable {
        /// Nothing is journaled: no local change to take back.
        case nothingToUndo
        /// The change was taken back. `fields` are the fields written back,
        /// each with the value it held and the value it holds again;
        /// `wasAdd` when the change made the task (it is deleted now).
        case undone(TaskItem, fields: [UndoneField], wasAdd: Bool)
        /// A field the change wrote moved on since (another process, another
        /// machine): nothing was written. `byThisReplica` tells whether the
        /// newer value was written on this machine.
        case refused(TaskItem, StaleWrite, byThisReplica: Bool)
    }

    public struct UndoneField: Sendable, Equatable {
        public let field: TaskField
        public let from: FieldValue
        public let to: FieldValue
    }

    /// Takes back this store's newest journaled local change (``UndoJournal``),
    /// only if every field it wrote still holds the version it left — the
    /// rule the TUI's `z` follows — in one transaction. The entry is spent
    /// either way.
    public func undoLastChange() throws -> UndoOutcome {
        try writeSession { session in
            guard let newest = try UndoJournal.takeNewest(session.db) else { return .nothingToUndo }
            guard var task = try TaskRow.fetchOne(session.db, id: newest.task) else { return .nothingToUndo }
            let before = task
            var expecting: [TaskField: Version?] = [:]
            let fields: [(TaskField, FieldValue)]
            switch newest.kind {
            case .add:
                // Deleted (restorable), unless it was deleted or restored
                // since; later edits were changes of their own.
                fields = [(.deleted, .bool(true))]
                expecting[.deleted] = .some(nil)
            case .edit:
                for e in newest.changes { expecting[e.field] = .some(e.version) }
                fields = newest.changes.map { ($0.field, $0.value) }
            }
            do {
                let changes = try session.write(fields, to: &task, expecting: expecting)
                var left: [TaskField: Version] = [:]
                for c in changes { left[c.field] = c.version }
                try UndoJournal.relink(after: newest, leaving: left, session.db)
                let undone = changes.map { UndoneField(field: $0.field, from: before.value(of: $0.field), to: $0.value) }
                return .undone(task, fields: undone, wasAdd: newest.kind == .add)
            } catch let stale as StaleWrite {
                return .refused(task, stale, byThisReplica: stale.version?.replica == session.replica)
            }
        }
    }
}
