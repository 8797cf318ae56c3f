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
/// is; but a successor deleted since — an undo of the step — is made alive
/// again while the series went no further). Two machines completing the
/// same occurrence while apart therefore write one successor row, which the
/// merge settles. A step that makes (or revives) a successor is one group in
/// the undo journal: one `undo` takes back both.
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
            // Held already (another machine made it): left as it is.
            let held = try outcome.successor.flatMap { try TaskRow.fetchOne(session.db, id: $0.id) }
            let makes = outcome.successor != nil && held?.versions[.created] == nil
            // A successor deleted since (an undo of this step) while the series went no further is made alive.
            let revives = try !makes && outcome.successor.map { next in
                guard let held, held.deleted, !held.isDone else { return false }
                return try TaskRow.fetchOne(session.db, id: next.occurrence.next.taskID)?.versions[.created] == nil
            } == true
            let before = task
            let changes = try session.write(outcome.closingEdits, to: &task, expecting: expecting)
            // Closing and successor are one user action: one group, one undo.
            try UndoJournal.record(makes || revives ? .stepEdit : .edit, before: before, changes: changes, at: session.now, session.db)
            if let stops = outcome.stops {
                var next = try TaskRow.fetchOne(session.db, id: stops) ?? TaskItem(id: stops)
                _ = try session.write([(.deleted, .bool(true))], to: &next)
            }
            guard let next = outcome.successor else { return SeriesStep(task: task, changes: changes, successor: nil, madeSuccessor: false) }
            if revives, var successor = held {
                let restored = try session.write([(.deleted, .bool(false))], to: &successor)
                try UndoJournal.record(.stepAdd, before: held!, changes: restored, at: session.now, session.db)
                return SeriesStep(task: task, changes: changes, successor: successor, madeSuccessor: true)
            }
            guard makes else { return SeriesStep(task: task, changes: changes, successor: held, madeSuccessor: false) }
            var successor = held ?? TaskItem(id: next.id)
            let unborn = successor
            let made = try session.write(next.edits + RecurrenceStep.restarting(unborn, after: before), to: &successor)
            try UndoJournal.record(.stepAdd, before: unborn, changes: made, at: session.now, session.db)
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

extension TaskStore {
    /// The open tasks on the local date `today`: those in the lists
    /// (`shown`, what `list` prints) and those deferred after it (`later`,
    /// what `list --later` prints); the two add up to every open task.
    public func openCounts(on today: DueDate) throws -> (shown: Int, later: Int) {
        try database.read { db in
            let (deferred, arguments) = ListSQL.deferred(after: today)
            let row = try Row.fetchOne(db, sql: "SELECT count(*), sum(\(deferred)) FROM task WHERE \(ListSQL.open)", arguments: arguments)
            let open: Int = row?[0] ?? 0, later: Int = row?[1] ?? 0
            return (open - later, later)
        }
    }
}
