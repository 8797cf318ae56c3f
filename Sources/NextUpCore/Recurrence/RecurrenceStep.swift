/// What completing, skipping or stopping an occurrence of a series writes: a
/// pure function of the occurrence as the caller saw it. The store writes an
/// outcome in one transaction, through ``LocalEdit``: ``Outcome/closing`` on
/// the occurrence, with the versions the caller saw of
/// ``Outcome/restsOn`` as `expecting` (a view gone stale is refused, never
/// written over); ``Outcome/successor`` as a new task, unless a task under
/// its id is already held (then nothing is written to it: another machine
/// made it, and may have edited it since); ``Outcome/stops`` as a deleted
/// mark on that id.
///
/// A series is one live task at a time. Occurrence *n* carries `recur` (the
/// rule) and `occurrence` (``OccurrenceID``); completing it marks it done and
/// makes occurrence *n+1*: the id derived from the series and *n+1*, the due
/// date ``RecurrenceSchedule`` gives, and the series' fields carried over —
/// title, notes, urgency, importance, duration, category, tags. Not carried:
/// Next Up (the successor starts in the Backlog — Next Up is what was chosen
/// for a day, and its due date ranks the successor there), source and
/// external id (the record a task was imported from is the first one's), and
/// opaque fields. A defer date keeps its distance from the due date: an
/// occurrence deferred until 2 days before its due date makes a successor
/// deferred until 2 days before its own. An occurrence may hold fields of
/// its own ("this one only", ``editing(_:on:thisOnly:)``): the successor
/// takes the series' values of them. Skipping is the same with the occurrence marked deleted
/// instead of done. Stopping clears the rule of the live occurrence, which
/// stays as a task of its own, and marks its successor's id deleted.
///
/// **Convergence.** Two replicas that complete (or skip) occurrence *n* from
/// the same view write the same row: the same id, and the same value in
/// every field the rule decides (the carried fields, `recur`, `occurrence`,
/// and the due date of a rule on fixed dates); they differ only in `created`,
/// in the due date of a rule counted from completion or from today, and in
/// versions — the per-field merge keeps one of each. No step reopens an
/// occurrence, and a successor is made only by closing its predecessor, so
/// once every replica has merged every change, a series has at most one open
/// occurrence, and exactly one unless it was stopped or ended; every
/// occurrence a replica completed is done. A successor is made from the
/// occurrence's ``TaskItem/seriesView`` (its "this one only" fields hold
/// the series' values), so it is a function of the occurrence's registers
/// alone, and replicas that merged the same changes make the same one. A stop reaches the occurrence it
/// was made on and the next one: a machine that, while apart, went on past
/// that one keeps the series going.
public enum RecurrenceStep {
    /// Occurrence *n+1*, as a creation.
    public struct Successor: Sendable, Equatable {
        public let occurrence: OccurrenceID
        public let due: DueDate
        /// The new task's fields (a creation: ``LocalEdit`` on
        /// `TaskItem(id: id)` skips those that hold a fresh task's default).
        public let fields: [TaskField: FieldValue]

        public var id: TaskID { occurrence.taskID }

        /// ``fields`` in field order, as ``LocalEdit`` takes them.
        public var edits: [(TaskField, FieldValue)] { fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    public struct Outcome: Sendable, Equatable {
        /// The writes on the occurrence itself.
        public let closing: [TaskField: FieldValue]
        /// The occurrence's fields this outcome was made from: the caller
        /// passes the versions it saw of them as ``LocalEdit``'s `expecting`.
        public let restsOn: [TaskField]
        /// The next occurrence; nil when the series ends (or was stopped).
        public let successor: Successor?
        /// A task id to mark deleted: the stopped series' next occurrence.
        public let stops: TaskID?

        /// ``closing`` in field order, as ``LocalEdit`` takes them.
        public var closingEdits: [(TaskField, FieldValue)] { closing.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// The fields a successor takes from its predecessor.
    public static let carried: [TaskField] = [.title, .notes, .urgency, .importance, .duration, .category]

    /// Completing occurrence `occurrence` (the task `task`, ruled by `rule`)
    /// at `millis` on the person's local date `day`. Throws a one-line
    /// ``TaskInputError`` when the occurrence is not open.
    public static func complete(_ task: TaskItem, occurrence: OccurrenceID, rule: RecurrenceRule,
                                doneOn day: DueDate, at millis: Int64) throws -> Outcome {
        try close(task, occurrence: occurrence, rule: rule, day: day, millis: millis, with: [.done: .int(millis)])
    }

    /// Skipping occurrence `occurrence`: it is marked deleted (kept in the
    /// history), and the series goes on as after completing it.
    public static func skip(_ task: TaskItem, occurrence: OccurrenceID, rule: RecurrenceRule,
                            on day: DueDate, at millis: Int64) throws -> Outcome {
        try close(task, occurrence: occurrence, rule: rule, day: day, millis: millis, with: [.deleted: .bool(true)])
    }

    /// Stopping the series at its open occurrence: the occurrence keeps
    /// everything but its rule, and the next occurrence's id is marked
    /// deleted, so a successor another machine makes while apart arrives
    /// deleted.
    public static func stop(_ task: TaskItem, occurrence: OccurrenceID) throws -> Outcome {
        guard task.isOpen else { throw TaskInputError("this occurrence is \(task.isDone ? "done" : "deleted"); the series goes on from its next one") }
        return Outcome(closing: [.recur: .null], restsOn: [.done, .deleted, .recur, .occurrence], successor: nil,
                       stops: occurrence.next.taskID)
    }

    private static func close(_ task: TaskItem, occurrence: OccurrenceID, rule: RecurrenceRule, day: DueDate,
                              millis: Int64, with closing: [TaskField: FieldValue]) throws -> Outcome {
        guard task.isOpen else { throw TaskInputError("this occurrence is already \(task.isDone ? "done" : "deleted")") }
        let own = task
        let restsOn: [TaskField] = [.done, .deleted, .due, .recur, .occurrence, .deferDate] + carried
            + own.extra.keys.filter { $0.tagName != nil || $0.seriesOf != nil }.sorted()
        // The successor is made from the series' values, not this one's own.
        let task = own.seriesView
        let rule = rule.isAnchored ? rule : rule.anchored(at: task.due ?? day)
        let tags = task.extra.keys.filter { $0.tagName != nil && task.extra[$0] == .bool(true) }
        guard let due = RecurrenceSchedule(rule).successor(of: occurrence.number, due: task.due, doneOn: day) else {
            return Outcome(closing: closing, restsOn: restsOn, successor: nil, stops: nil)
        }
        let next = occurrence.next
        var fields: [TaskField: FieldValue] = [:]
        for field in carried { fields[field] = task.value(of: field) }
        for tag in tags { fields[tag] = .bool(true) }
        fields[.due] = .string(due.description)
        if let deferred = task.deferDate, let was = task.due, deferred <= was {
            fields[.deferDate] = .string(DueDate(epochDay: max(due.epochDay - (was.epochDay - deferred.epochDay), 0)).description)
        }
        fields[.created] = .int(millis)
        fields[.recur] = .string(rule.rrule)
        fields[.occurrence] = .string(next.description)
        return Outcome(closing: closing, restsOn: restsOn, successor: Successor(occurrence: next, due: due, fields: fields), stops: nil)
    }
}
