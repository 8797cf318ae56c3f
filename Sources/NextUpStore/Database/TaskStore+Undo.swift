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
        /// The change was an `import --overwrite`, taken back whole: every
        /// field it replaced holds its earlier value again, every task it
        /// made is deleted (restorable).
        case undoneImport(tasks: Int, fields: Int, deleted: Int)
        /// The change cannot be taken back (an import larger than the
        /// journal): nothing was written.
        case cannotUndo(String)
    }

    public struct UndoneField: Sendable, Equatable {
        public let field: TaskField
        public let from: FieldValue
        public let to: FieldValue
    }

    /// Takes back this store's newest journaled local change (``UndoJournal``),
    /// only if every field it wrote still holds the version it left — the
    /// rule the TUI's `z` follows — in one transaction. An `import
    /// --overwrite` is taken back whole or not at all. The entry is spent
    /// either way; nothing is reported undone that was not written.
    public func undoLastChange() throws -> UndoOutcome {
        try writeSession(records: UndoJournal.limit) { session in
            let group = try UndoJournal.takeNewestChange(session.db)
            guard let newest = group.first else { return .nothingToUndo }
            if newest.kind == .importTooLarge {
                return .cannotUndo("the last change was an import that changed more than \(UndoJournal.limit) tasks, "
                                   + "more than the undo journal keeps; nothing changed (import the file you exported before it to go back)")
            }
            // Every entry is checked before anything is written.
            var tasks: [TaskItem] = []
            for entry in group {
                guard let task = try TaskRow.fetchOne(session.db, id: entry.task) else { return .nothingToUndo }
                for (field, expected) in Self.expected(entry) where task.versions[field] != expected {
                    let stale = StaleWrite(task: task.id, field: field, current: task.value(of: field), version: task.versions[field])
                    return .refused(task, stale, byThisReplica: stale.version?.replica == session.replica)
                }
                tasks.append(task)
            }
            var fieldsWritten = 0, deleted = 0
            var single: UndoOutcome = .nothingToUndo
            for (entry, before) in zip(group, tasks) {
                var task = before
                let changes = try session.write(Self.fields(entry), to: &task, expecting: Self.expected(entry))
                var left: [TaskField: Version] = [:]
                for c in changes { left[c.field] = c.version }
                try UndoJournal.relink(after: entry, leaving: left, session.db)
                fieldsWritten += changes.count
                if entry.kind == .importAdd && !changes.isEmpty { deleted += 1 }
                let undone = changes.map { UndoneField(field: $0.field, from: before.value(of: $0.field), to: $0.value) }
                single = .undone(task, fields: undone, wasAdd: entry.kind == .add)
            }
            if newest.kind.isImport { return .undoneImport(tasks: group.count, fields: fieldsWritten, deleted: deleted) }
            return single
        }
    }

    /// What taking back `entry` writes.
    private static func fields(_ entry: UndoJournal.Entry) -> [(TaskField, FieldValue)] {
        switch entry.kind {
        case .add, .importAdd, .stepAdd:
            // Deleted (restorable), unless it was deleted or restored
            // since; later edits were changes of their own.
            return [(.deleted, .bool(true))]
        case .edit, .importEdit, .importTooLarge, .stepEdit:
            return entry.changes.map { ($0.field, $0.value) }
        }
    }

    /// The versions `entry`'s fields must still hold to be taken back.
    private static func expected(_ entry: UndoJournal.Entry) -> [TaskField: Version?] {
        switch entry.kind {
        case .add, .importAdd, .stepAdd:
            let deleted: Version? = entry.changes.first { $0.field == .deleted }?.version
            return [.deleted: deleted]
        case .edit, .importEdit, .importTooLarge, .stepEdit:
            return Dictionary(entry.changes.map { ($0.field, .some($0.version)) }, uniquingKeysWith: { a, _ in a })
        }
    }
}
