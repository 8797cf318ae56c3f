import NextUpCore

/// An in-memory ``TaskBackend`` for tests: tasks in a dictionary, writes
/// through Core's ``LocalEdit`` (conditional and versioned, as the store's),
/// lists ordered by ``TaskOrdering``. `edit(_:_:)` plays another process
/// changing the store. It passes the same contract suite as ``StoreBackend``
/// (`TaskBackendContractTests`).
public final class MemoryBackend: TaskBackend {
    public private(set) var tasks: [TaskID: TaskItem] = [:]
    public private(set) var token = 0
    /// Set to make every call throw this message.
    public var failure: String?
    private var clock = HybridClock()
    private let replicaID = ReplicaID.make()
    private var now: Int64

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(tasks: [TaskItem] = [], nowMillis: Int64 = 1_800_000_000_000) {
        now = nowMillis
        for t in tasks { self.tasks[t.id] = t }
    }

    /// Adds a task as another process would (the change token moves).
    @discardableResult
    public func add(_ title: String, nextUp: Bool = false, _ configure: (inout TaskItem) -> Void = { _ in }) -> TaskID {
        var t = TaskItem(id: TaskID.make())
        try? stamp(&t, .title, .string(title))
        try? stamp(&t, .created, .int(now))
        if let key = nextUp ? try? NextUpPlace.end.keys(for: t.id, in: [], lastKey: lastKey).first?.1 : nil {
            try? stamp(&t, .nextUp, .string(key))
        }
        configure(&t)
        tasks[t.id] = t
        token += 1
        return t.id
    }

    /// Changes one field as another process on this store would, or (with
    /// `by`) as a merge from another replica would leave it.
    public func edit(_ id: TaskID, _ field: TaskField, _ value: FieldValue, by replica: ReplicaID? = nil) {
        guard var t = tasks[id] else { return }
        try? stamp(&t, field, value, by: replica)
        if t != tasks[id] { token += 1 }
        tasks[id] = t
    }

    public func replica() -> ReplicaID? { replicaID }

    public func listIDs(_ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID]) {
        try check()
        let listed = tasks.values.filter { !$0.deleted && ($0.isOpen || query.keepDone.contains($0.id)) && query.filter.matches($0, today: query.today) }
        let next = listed.filter(\.isNextUp).sorted(by: TaskOrdering.nextUpPrecedes)
        let backlog = TaskOrdering.sorted(listed.filter { !$0.isNextUp }, by: query.sort, nowMillis: nowMillis)
        return (next.map(\.id), backlog.map(\.id))
    }

    public func historyIDs(limit: Int) throws -> [TaskID] {
        try check()
        let past = tasks.values.filter { $0.deleted || $0.isDone }
            .sorted { $0.modified != $1.modified ? $0.modified > $1.modified : $0.id.rawValue < $1.id.rawValue }
        return past.prefix(limit).map(\.id)
    }

    public func rows(_ ids: [TaskID]) throws -> [TaskItem] {
        try check()
        return ids.compactMap { tasks[$0] }
    }

    /// The names on tasks not deleted, one spelling per name (the oldest task's).
    public func names() throws -> (categories: [String], tags: [String]) {
        try check()
        let live = tasks.values.filter { !$0.deleted }.sorted { ($0.created, $0.id.rawValue) < ($1.created, $1.id.rawValue) }
        func firstSpellings(_ all: [String]) -> [String] {
            var out: [String] = []
            for name in all where !out.contains(where: { TextMatch.same($0, name) }) { out.append(name) }
            return out.sorted { TextMatch.caseFold($0) < TextMatch.caseFold($1) }
        }
        return (firstSpellings(live.compactMap(\.category)), firstSpellings(live.flatMap(\.tags)))
    }

    public func changeToken() throws -> Int? {
        try check()
        return token
    }

    public func perform(_ write: Write, expecting seen: [TaskField: Version?]) throws -> (task: TaskItem, changed: Bool) {
        try check()
        if case .add(let title, let toNextUp) = write {
            return (tasks[add(title, nextUp: toNextUp)]!, true)
        }
        guard let id = write.task, let task = tasks[id] else { throw Failure(description: "no such task") }
        // Field edits as the store's `edit`: on an occurrence of a series,
        // Core's ``RecurrenceStep/editing(_:on:thisOnly:)`` decides whose
        // value (the series' or this occurrence's) the edit is.
        if case .some(let fields) = write.fieldEdits {
            now += 1
            let outcome = try LocalEdit.apply(RecurrenceStep.editing(fields, on: task, thisOnly: write.isThisOnly), to: task,
                                              clock: clock, replica: replicaID, now: now, expecting: seen)
            clock = outcome.clock
            if outcome.task != task { token += 1 }
            tasks[id] = outcome.task
            return (outcome.task, outcome.task != task)
        }
        if let outcome = try performSeries(write, task, seen) { return outcome }
        var keys: [(TaskID, String)] = []
        let own: (TaskField, FieldValue)
        switch write {
        case .add, .setTags, .setRecurrence, .setDefer, .skipOccurrence, .completeOccurrence, .stopSeries,
             .setTitle, .setUrgency, .setImportance, .setDuration, .setCategory, .setDue, .setNotes, .restoreValue, .thisOnly:
            fatalError("handled above")
        case .complete: own = (.done, task.isDone ? task.value(of: .done) : .int(now))
        case .reopen: own = (.done, .null)
        case .delete: own = (.deleted, .bool(true))
        case .restore: own = (.deleted, .bool(false))
        case .removeFromNextUp: own = (.nextUp, .null)
        case .placeInNextUp(_, let place):
            do {
                keys = try place.keys(for: id, in: Array(tasks.values), lastKey: lastKey)
            } catch {
                throw Failure(description: "\(error)")
            }
            own = (.nextUp, keys.first.map { .string($0.1) } ?? task.value(of: .nextUp))
        }
        var t = task
        try stamp(&t, own.0, own.1, expecting: seen)
        if t != task { token += 1 }
        tasks[id] = t
        for (other, key) in keys.dropFirst() { edit(other, .nextUp, .string(key)) }
        return (t, t != task)
    }

    /// The writes of series and defer dates, with Core's ``RecurrenceStep``
    /// as the store makes them: the occurrence written conditionally, its
    /// successor made unless its id is held already.
    private func performSeries(_ write: Write, _ task: TaskItem, _ seen: [TaskField: Version?]) throws -> (task: TaskItem, changed: Bool)? {
        var edits: [(TaskField, FieldValue)]
        var successor: RecurrenceStep.Successor?
        var stops: TaskID?
        switch write {
        case .setRecurrence(_, let rule):
            edits = RecurrenceStep.starting([(.recur, rule.map { .string($0.rrule) } ?? .null)], on: task)
        case .setDefer(_, let date):
            edits = [(TaskField.deferDate, date.map { .string($0.description) } ?? .null)]
        case .skipOccurrence, .completeOccurrence, .stopSeries:
            guard let rule = task.recur, let occurrence = task.occurrence else { throw Failure(description: "this task does not repeat") }
            let outcome: RecurrenceStep.Outcome
            do {
                switch write {
                case .skipOccurrence(_, let day): outcome = try RecurrenceStep.skip(task, occurrence: occurrence, rule: rule, on: day, at: now)
                case .completeOccurrence(_, let day):
                    outcome = try RecurrenceStep.complete(task, occurrence: occurrence, rule: rule, doneOn: day, at: now)
                default: outcome = try RecurrenceStep.stop(task, occurrence: occurrence)
                }
            } catch let error as TaskInputError {
                throw Failure(description: error.message)
            }
            edits = outcome.closingEdits
            successor = outcome.successor
            stops = outcome.stops
        default:
            return nil
        }
        now += 1
        let outcome = try LocalEdit.apply(edits, to: task, clock: clock, replica: replicaID, now: now, expecting: seen)
        clock = outcome.clock
        tasks[task.id] = outcome.task
        if let stops {
            now += 1
            let marked = try LocalEdit.apply([(.deleted, .bool(true))], to: tasks[stops] ?? TaskItem(id: stops), clock: clock, replica: replicaID, now: now)
            clock = marked.clock
            tasks[stops] = marked.task
        }
        // Made unless held already (born), as the store does.
        if let successor, tasks[successor.id]?.versions[.created] == nil {
            now += 1
            let unborn = tasks[successor.id] ?? TaskItem(id: successor.id)
            let made = try LocalEdit.apply(successor.edits + RecurrenceStep.restarting(unborn, after: task), to: unborn,
                                           clock: clock, replica: replicaID, now: now)
            clock = made.clock
            tasks[successor.id] = made.task
        }
        if outcome.task != task { token += 1 }
        return (outcome.task, outcome.task != task)
    }

    private func check() throws {
        if let failure { throw Failure(description: failure) }
    }

    /// The greatest order key in use, as the store's.
    private var lastKey: String? { tasks.values.compactMap(\.nextUpPosition).max() }

    /// One local edit (Core's): conditional, versioned, checked against what
    /// the caller saw; a no-op changes nothing.
    private func stamp(_ t: inout TaskItem, _ field: TaskField, _ value: FieldValue,
                       by replica: ReplicaID? = nil, expecting seen: [TaskField: Version?] = [:]) throws {
        now += 1
        let outcome = try LocalEdit.apply([(field, value)], to: t, clock: clock, replica: replica ?? replicaID, now: now,
                                          expecting: seen)
        t = outcome.task
        clock = outcome.clock
    }
}
