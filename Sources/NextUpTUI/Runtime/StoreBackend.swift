import NextUpCore
import NextUpStore
import NextUpSync

/// The UI's view of the shared store: lean listing queries, full rows only for
/// what is on screen, and intent-named writes of single fields.
public final class StoreBackend: TaskBackend {
    public let store: TaskStore
    /// The filter's words are matched in memory while they are typed.
    private let narrowing = TitleNarrowing()
    /// The last plain listing, which the next one is brought up to date from.
    private var lists: TaskStore.Lists?
    /// Names for replicas that are not machines (the phone's), which the
    /// history shows beside ``MachineNames``.
    private let otherNames: [ReplicaID: String]

    /// How many Backlog rows one slice of a read in slices reads.
    let sliceRows: Int

    /// `sliceRows`: the Backlog rows one call of ``listIDsInSlices(_:nowMillis:)`` reads at most.
    public init(store: TaskStore, otherNames: [ReplicaID: String] = [:], sliceRows: Int = 5_000) {
        self.store = store
        self.otherNames = otherNames
        self.sliceRows = max(1, sliceRows)
    }

    /// The store's listing for `query`: brought up to date from the last one
    /// with the rows written since (``TaskStore/lists(sort:narrowing:keepDone:nowMillis:since:slice:)``);
    /// a filter with words or `cat:` is narrowed in memory from the listing
    /// without them (``TitleNarrowing``, same result).
    public func listIDs(_ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID]) {
        try read(query, nowMillis: nowMillis, slice: nil)!
    }

    /// ``listIDs(_:nowMillis:)``, but when the last listing cannot be
    /// brought up to date (many rows were written, or its ranking is old)
    /// the lists are read again in slices of ``sliceRows``, one per call.
    /// A change of sort or filter is read whole.
    public func listIDsInSlices(_ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID])? {
        try read(query, nowMillis: nowMillis, slice: sliceRows)
    }

    private func read(_ query: ListQuery, nowMillis: Int64, slice: Int?) throws -> (nextUp: [TaskID], backlog: [TaskID])? {
        guard TitleNarrowing.base(of: query) == query else { return try narrowing.listIDs(store, query, nowMillis: nowMillis) }
        let fresh = try store.lists(sort: query.sort, narrowing: TaskStore.ListNarrowing(query.filter, today: query.today),
                                    keepDone: query.keepDone, nowMillis: nowMillis, since: lists, slice: slice)
        lists = fresh
        return fresh.isComplete ? (fresh.nextUp, fresh.backlog) : nil
    }

    /// Reads the listing the filter narrows from (``TitleNarrowing/prepare(_:_:nowMillis:)``).
    public func prepareToNarrow(_ query: ListQuery, nowMillis: Int64) {
        try? narrowing.prepare(store, query, nowMillis: nowMillis)
    }

    public func historyIDs(limit: Int) throws -> [TaskID] { try store.historyIDs(limit: limit) }

    public func rows(_ ids: [TaskID]) throws -> [TaskItem] { try store.tasks(ids: ids) }

    public func changeToken() throws -> Int? { try store.dataVersion() }

    public func names() throws -> (categories: [String], tags: [String]) { (try store.categoryNames(), try store.tagNames()) }

    public func replica() -> ReplicaID? { try? store.replicaID() }

    public func perform(_ write: Write, expecting seen: [TaskField: Version?]) throws -> (task: TaskItem, changed: Bool) {
        switch write {
        case .add(let title, let toNextUp):
            var draft = try TaskDraft(title: title)
            draft.nextUp = toNextUp
            return (try store.add(draft), true)
        case .setTitle(let id, let title):
            return try set(id, .title, .string(title), seen)
        case .setUrgency(let id, let u):
            return try set(id, .urgency, u.map { .string($0.rawValue) } ?? .null, seen)
        case .setImportance(let id, let i):
            return try set(id, .importance, i.map { .int(Int64($0.rawValue)) } ?? .null, seen)
        case .setDuration(let id, let d):
            return try set(id, .duration, d.map { .int(Int64($0.minutes)) } ?? .null, seen)
        case .setCategory(let id, let c):
            return try set(id, .category, c.map { .string($0) } ?? .null, seen)
        case .setDue(let id, let d):
            return try set(id, .due, d.map { .string($0.description) } ?? .null, seen)
        case .setNotes(let id, let notes):
            return try set(id, .notes, .string(notes), seen)
        case .setTags(let id, let tags):
            return try store.edit(id, set: tags.sorted { $0.key < $1.key }.map { (.tag($0.key), .bool($0.value)) }, expecting: seen).outcome
        case .complete(let id): return try store.complete(id, expecting: seen).outcome
        case .reopen(let id): return try store.reopen(id, expecting: seen).outcome
        case .delete(let id): return try store.delete(id, expecting: seen).outcome
        case .restore(let id): return try store.restore(id, expecting: seen).outcome
        case .removeFromNextUp(let id): return try store.removeFromNextUp(id, expecting: seen).outcome
        case .placeInNextUp(let id, let place): return try store.placeInNextUp(id, place, expecting: seen).outcome
        case .setRecurrence(let id, let rule):
            return try set(id, .recur, rule.map { .string($0.rrule) } ?? .null, seen)
        case .setDefer(let id, let date):
            return try set(id, TaskField.deferDate, date.map { .string($0.description) } ?? .null, seen)
        case .skipOccurrence(let id, let day): return try store.skipOccurrence(id, today: day, expecting: seen).outcome
        case .completeOccurrence(let id, let day): return try store.completeOccurrence(id, today: day, expecting: seen).outcome
        case .stopSeries(let id): return try store.stopSeries(id, expecting: seen).outcome
        case .restoreValue(let id, let field, let value): return try set(id, field, value, seen)
        case .thisOnly(let inner):
            guard let id = inner.task, let fields = inner.fieldEdits else { return try perform(inner, expecting: seen) }
            return try store.edit(id, set: fields, expecting: seen, thisOnly: true).outcome
        }
    }

    private func set(_ id: TaskID, _ field: TaskField, _ value: FieldValue, _ seen: [TaskField: Version?]) throws -> (task: TaskItem, changed: Bool) {
        try store.edit(id, set: [(field, value)], expecting: seen).outcome
    }
}

extension TaskStore.WriteResult {
    var outcome: (task: TaskItem, changed: Bool) { (task, isChange) }
}

extension TaskStore.SeriesStep {
    var outcome: (task: TaskItem, changed: Bool) { (task, !changes.isEmpty) }
}

extension StoreBackend {
    /// The task's history (``TaskStore/history(of:)``) in words, machines by
    /// name (``MachineNames``), newest first.
    public func changes(of id: TaskID, utcOffsetSeconds: Int) throws -> [ChangeLine] {
        let history = try store.history(of: id)
        let names = try MachineNames.known(store).merging(otherNames) { _, other in other }
        let current = TaskHistory.currentVersions(history)
        return history.map { line in
            let entry = line.entry
            let machine = MachineNames.label(entry.version.replica, in: names)
            let time = DetailView.localTime(entry.version.timestamp.millis, utcOffsetSeconds)
            return ChangeLine(text: "\(time)  \(machine) (\(entry.note?.origin?.rawValue ?? "merge"))  "
                                  + TaskHistory.words(entry.field, old: line.old, new: entry.value),
                              race: line.lostTo.map { "lost a race with \(MachineNames.label($0.replica, in: names))'s edit" },
                              field: entry.field, value: entry.value, fieldVersion: current[entry.field],
                              isCurrent: line.isCurrent, restorable: TaskStore.restorable(entry.field))
        }
    }
}

extension StoreBackend {
    /// ``TaskStore/arrivals(since:)`` in words, machines by name; what it
    /// lists is marked seen (``TaskStore/markSeen(_:)``) as it is shown.
    public func away(since: Int64?) throws -> AwaySummary? {
        let arrivals = try store.arrivals(since: since, limit: AwaySummary.readLimit)
        let names = try MachineNames.known(store).merging(otherNames) { _, other in other }
        let lines = arrivals.tasks.flatMap { task in
            task.lines.map { line in
                AwaySummary.Line(machine: MachineNames.label(line.entry.version.replica, in: names), title: task.title,
                                 change: TaskHistory.words(line.entry.field, old: line.old, new: line.entry.value))
            }
        }
        if !lines.isEmpty { try? store.markSeen(arrivals) }
        return AwaySummary(since: arrivals.since, lines: lines, tasks: arrivals.tasks.count, cut: arrivals.cut)
    }

    public func delivery() throws -> DeliveryStatus? { try DeliveryStatus.read(store) }
}
