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
    private let replica = ReplicaID.make()
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
        stamp(&t, .title, .string(title))
        stamp(&t, .created, .int(now))
        if let key = nextUp ? try? NextUpPlace.end.keys(for: t.id, in: [], lastKey: lastKey).first?.1 : nil {
            stamp(&t, .nextUp, .string(key))
        }
        configure(&t)
        tasks[t.id] = t
        token += 1
        return t.id
    }

    /// Changes one field as another process would.
    public func edit(_ id: TaskID, _ field: TaskField, _ value: FieldValue) {
        guard var t = tasks[id] else { return }
        stamp(&t, field, value)
        if t != tasks[id] { token += 1 }
        tasks[id] = t
    }

    public func listIDs(_ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID]) {
        try check()
        let listed = tasks.values.filter { !$0.deleted && ($0.isOpen || query.keepDone.contains($0.id)) && query.filter.matches($0) }
        let next = listed.filter(\.isNextUp).sorted(by: TaskOrdering.nextUpPrecedes)
        let backlog = TaskOrdering.sorted(listed.filter { !$0.isNextUp }, by: query.sort, nowMillis: nowMillis)
        return (next.map(\.id), backlog.map(\.id))
    }

    public func rows(_ ids: [TaskID]) throws -> [TaskItem] {
        try check()
        return ids.compactMap { tasks[$0] }
    }

    public func changeToken() throws -> Int? {
        try check()
        return token
    }

    public func perform(_ write: Write) throws -> TaskID {
        try check()
        if case .add(let title, let toNextUp) = write {
            let id = add(title, nextUp: toNextUp)
            return id
        }
        guard let id = write.task, tasks[id] != nil else { throw Failure(description: "no such task") }
        switch write {
        case .add: break
        case .setTitle(_, let s): edit(id, .title, .string(s))
        case .setUrgency(_, let u): edit(id, .urgency, u.map { .string($0.rawValue) } ?? .null)
        case .setImportance(_, let i): edit(id, .importance, i.map { .int(Int64($0.rawValue)) } ?? .null)
        case .setDuration(_, let d): edit(id, .duration, d.map { .int(Int64($0.minutes)) } ?? .null)
        case .setCategory(_, let c): edit(id, .category, c.map { .string($0) } ?? .null)
        case .complete: edit(id, .done, .int(now))
        case .reopen: edit(id, .done, .null)
        case .delete: edit(id, .deleted, .bool(true))
        case .restore: edit(id, .deleted, .bool(false))
        case .removeFromNextUp: edit(id, .nextUp, .null)
        case .placeInNextUp(_, let place):
            do {
                for (task, key) in try place.keys(for: id, in: Array(tasks.values), lastKey: lastKey) { edit(task, .nextUp, .string(key)) }
            } catch {
                throw Failure(description: "\(error)")
            }
        }
        return id
    }

    private func check() throws {
        if let failure { throw Failure(description: failure) }
    }

    /// The greatest order key in use, as the store's.
    private var lastKey: String? { tasks.values.compactMap(\.nextUpPosition).max() }

    /// One local edit (Core's): conditional, versioned; a no-op changes nothing.
    private func stamp(_ t: inout TaskItem, _ field: TaskField, _ value: FieldValue) {
        now += 1
        guard let outcome = try? LocalEdit.apply([(field, value)], to: t, clock: clock, replica: replica, now: now) else { return }
        t = outcome.task
        clock = outcome.clock
    }
}
