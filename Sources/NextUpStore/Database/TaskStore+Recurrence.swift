import GRDB
import NextUpCore

/// The intents of recurring tasks: completing, skipping and stopping an
/// occurrence of a series, each one transaction that writes what Core's
/// ``RecurrenceStep`` decides.
///
/// Contract: the occurrence is closed with the versions the caller saw
/// (`expecting`, as for ``edit(_:set:nextUp:place:expecting:)``; a view gone
/// stale is refused and nothing is written), and in the same transaction its
/// successor is made under the id derived from the series and its number
/// (``OccurrenceID/taskID``) — unless a task under that id is already held
/// (another machine made it, and may have edited it since: it is left as it
/// is). Two machines completing the same occurrence while apart therefore
/// write one successor row, which the merge settles.
extension TaskStore {
    /// What a step on a series wrote.
    public struct SeriesStep: Sendable, Equatable {
        /// The occurrence after the step.
        public let task: TaskItem
        /// The changes made to the occurrence (empty: it already stood so).
        public let changes: [FieldChange]
        /// The next occurrence as the store holds it after the step: made by
        /// it (``madeSuccessor``) or already held. Nil when the series ended
        /// (its `COUNT` or `UNTIL`) and for a stop.
        public let successor: TaskItem?
        /// Whether this step made ``successor``.
        public let madeSuccessor: Bool
        /// Whether the occurrence changed.
        public var isChange: Bool { !changes.isEmpty }
    }

    /// Completes occurrence *n* of its series on the person's local date
    /// `today` and makes occurrence *n+1* (see the contract above). A task
    /// that does not recur is refused in one line: complete it with
    /// ``complete(_:expecting:)``.
    public func completeOccurrence(_ id: TaskID, today: DueDate, expecting: [TaskField: Version?] = [:]) throws -> SeriesStep {
        try seriesStep(id, expecting: expecting) { task, occurrence, rule, now in
            try RecurrenceStep.complete(task, occurrence: occurrence, rule: rule, doneOn: today, at: now)
        }
    }

    /// Skips occurrence *n*: it is marked deleted (kept in the history) and
    /// the series goes on with occurrence *n+1*, as after completing it.
    public func skipOccurrence(_ id: TaskID, today: DueDate, expecting: [TaskField: Version?] = [:]) throws -> SeriesStep {
        try seriesStep(id, expecting: expecting) { task, occurrence, rule, now in
            try RecurrenceStep.skip(task, occurrence: occurrence, rule: rule, on: today, at: now)
        }
    }

    /// Stops the series at its open occurrence `id`: the occurrence stays, a
    /// task of its own without a rule, and the next occurrence's id is marked
    /// deleted, so a successor another machine makes while apart arrives
    /// deleted.
    public func stopSeries(_ id: TaskID, expecting: [TaskField: Version?] = [:]) throws -> SeriesStep {
        try seriesStep(id, expecting: expecting) { task, occurrence, _, _ in
            try RecurrenceStep.stop(task, occurrence: occurrence)
        }
    }

    private func seriesStep(_ id: TaskID, expecting: [TaskField: Version?],
                            _ decide: (TaskItem, OccurrenceID, RecurrenceRule, Int64) throws -> RecurrenceStep.Outcome) throws -> SeriesStep {
        try writeSession { session in
            guard var task = try TaskRow.fetchOne(session.db, id: id), task.versions[.created] != nil else {
                throw StoreError.unknownTask(id.rawValue)
            }
            guard let rule = task.recur, let occurrence = task.occurrence else {
                throw TaskInputError("\(id.short) “\(Sanitizer.visible(task.title))” does not recur")
            }
            let outcome = try decide(task, occurrence, rule, session.now)
            let before = task
            let changes = try session.write(outcome.closingEdits, to: &task, expecting: expecting)
            try UndoJournal.record(.edit, before: before, changes: changes, at: session.now, session.db)
            if let stops = outcome.stops {
                var next = try TaskRow.fetchOne(session.db, id: stops) ?? TaskItem(id: stops)
                _ = try session.write([(.deleted, .bool(true))], to: &next)
            }
            guard let next = outcome.successor else { return SeriesStep(task: task, changes: changes, successor: nil, madeSuccessor: false) }
            var successor = try TaskRow.fetchOne(session.db, id: next.id) ?? TaskItem(id: next.id)
            // Held already (another machine made it): left as it is.
            if successor.versions[.created] != nil {
                return SeriesStep(task: task, changes: changes, successor: successor, madeSuccessor: false)
            }
            let unborn = successor
            let made = try session.write(next.edits + RecurrenceStep.restarting(unborn, after: before), to: &successor)
            try UndoJournal.record(.add, before: unborn, changes: made, at: session.now, session.db)
            return SeriesStep(task: task, changes: changes, successor: successor, madeSuccessor: true)
        }
    }
}

extension TaskStore {
    /// A series holding more than one live occurrence: what the series
    /// intents never make (`doctor` names it).
    public struct SeveredSeries: Sendable, Equatable {
        public let series: TaskID
        /// The live occurrences, oldest number first.
        public let occurrences: [TaskItem]
    }

    /// Every series with more than one open occurrence, by series id.
    public func seriesWithSeveralLiveOccurrences() throws -> [SeveredSeries] {
        let open = try database.read { db in try TaskRow.fetchAll(db, where: "\(ListSQL.open) AND occurrence IS NOT NULL AND \(ListSQL.shown)") }
        return Dictionary(grouping: open.filter { $0.occurrence != nil }) { $0.occurrence!.series }
            .filter { $0.value.count > 1 }
            .map { SeveredSeries(series: $0.key, occurrences: $0.value.sorted { $0.occurrence!.number < $1.occurrence!.number }) }
            .sorted { $0.series < $1.series }
    }
}
