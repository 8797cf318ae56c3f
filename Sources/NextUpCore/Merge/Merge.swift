/// The merge of replicas: a pure function, per field.
///
/// Each (task, field) pair is a last-writer-wins register ordered by
/// ``Version``. **Invariant:** after any sequence of ``apply(_:to:)`` calls,
/// every register holds the value carried by the greatest version among all the
/// changes ever applied to it. Taking a maximum is commutative, associative and
/// idempotent, so replicas that have applied the same set of changes — in any
/// order, any number of times, in any grouping — hold equal tasks, field by
/// field. Consequences the rest of the system relies on:
/// - concurrent edits of *different* fields never overwrite each other;
/// - a stale value can never replace a newer one, whatever its content
///   (an empty value is a value like any other, with an older version);
/// - re-applying what was already merged changes nothing, so a spurious or
///   repeated sync is always harmless.
///
/// Malformed values (``TaskField/accepts(_:)`` false) are rejected, not merged.
/// Two different values under one version (possible only after a store was
/// restored from a backup) are ordered by ``valueOrder(_:_:)``, so the merge
/// stays a maximum over a total order.
public enum Merge {
    /// The outcome of applying one change.
    public enum Outcome: Equatable, Sendable {
        /// The change won and the task now holds it.
        case applied
        /// The register already holds this version or a newer one.
        case superseded
        /// The value is not well formed for the field; nothing changed.
        case rejected
    }

    /// Whether a write at `incoming` replaces a register at `current`.
    public static func wins(_ incoming: Version, over current: Version?) -> Bool {
        guard let current else { return true }
        return incoming > current
    }

    /// Applies `change` to `task`, making the task when it was unknown.
    public static func apply(_ change: FieldChange, to task: inout TaskItem) -> Outcome {
        precondition(task.id == change.task, "a change applies to its own task only")
        guard change.field.accepts(change.value) else { return .rejected }
        let current = task.versions[change.field]
        guard wins(change.version, over: current)
            || (change.version == current && valueOrder(task.value(of: change.field), change.value)) else { return .superseded }
        // Checked above: set without checking again.
        task.restore(change.field, to: change.value)
        task.versions[change.field] = change.version
        return .applied
    }

    /// Breaks a tie between two *different* writes carrying the same version
    /// — which one replica never makes, but a store restored from a backup
    /// can (its clock went back, and it wrote again under its id what a lost
    /// write had used): the value first in a fixed order (kind, then bytes)
    /// loses, so that every replica keeps the same one.
    static func valueOrder(_ a: FieldValue, _ b: FieldValue) -> Bool {
        func rank(_ v: FieldValue) -> Int {
            switch v { case .null: 0; case .bool: 1; case .int: 2; case .string: 3; case .json: 4 }
        }
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return !x && y
        case (.int(let x), .int(let y)): return x < y
        case (.string(let x), .string(let y)), (.json(let x), .json(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        default: return rank(a) < rank(b)
        }
    }

    /// What merging a batch of changes did.
    public struct Tally: Sendable, Equatable {
        /// Changes that won and were written.
        public var applied = 0
        /// Changes already held at that version or a newer one.
        public var superseded = 0
        /// Changes with a value their field does not accept (never written).
        public var rejected = 0
        /// The tasks that changed, in first-change order.
        public var changedTasks: [TaskID] = []
        /// Changes that won although the local replica's own id wrote them:
        /// that replica never made them, so another store uses the same id
        /// (it was copied). Changes already held are not counted.
        public var foreignChangesUnderOwnID = 0
        /// The greatest timestamp among the changes (zero when none).
        public var newestTimestamp: HybridTimestamp = .zero

        public init() {}
    }

    /// The batch merge: applies `changes`, in order, to the tasks keyed by id
    /// (making the unknown ones), and tallies what happened. The store and
    /// every fake persist `tasks[id]` for each id in ``Tally/changedTasks``.
    ///
    /// The same as applying each change in turn with ``apply(_:to:)``
    /// (tested against that): a run of consecutive changes of one task — a
    /// log record's — is applied to one copy of the task, taken out of
    /// `tasks` once and put back once, instead of a lookup, a copy and a
    /// store per change.
    ///
    /// - Parameter localReplica: the merging replica's id, to count changes
    ///   made under it elsewhere (``Tally/foreignChangesUnderOwnID``).
    public static func apply<S: Sequence>(_ changes: S, to tasks: inout [TaskID: TaskItem],
                                          localReplica: ReplicaID?) -> Tally where S.Element == FieldChange {
        apply(Array(changes), to: &tasks, localReplica: localReplica)
    }

    /// The batch merge of an array (what the store and the fakes hand it):
    /// not generic, so callers in other modules do not go through a
    /// sequence's iterator by witness table, change by change.
    public static func apply(_ changes: [FieldChange], to tasks: inout [TaskID: TaskItem], localReplica: ReplicaID?) -> Tally {
        var tally = Tally()
        // The tasks in `changedTasks`, as a set: needed only once a run
        // finds its task held — until then every run's task is one no
        // earlier run changed (a changed task is put back, so held later),
        // and a whole log into an empty store never hashes an id for it.
        var changed: Set<TaskID>?
        // The task of the current run, whether `tasks` held it, whether a change of the run won.
        var current: TaskItem?
        var held = false
        var won = false
        func putBack() {
            guard let task = current.take() else { return }
            if held && changed == nil { changed = Set(tally.changedTasks) }
            if won, changed?.insert(task.id).inserted ?? true { tally.changedTasks.append(task.id) }
            if won || held { tasks[task.id] = task }
        }
        for change in changes {
            if change.version.timestamp > tally.newestTimestamp { tally.newestTimestamp = change.version.timestamp }
            if current?.id != change.task {
                putBack()
                if let task = tasks.removeValue(forKey: change.task) {
                    current = task
                    held = true
                } else {
                    var task = TaskItem(id: change.task)
                    // Room for every known field at once (a new task's record usually sets several).
                    task.versions.reserveCapacity(FieldSpec.table.count)
                    current = task
                    held = false
                }
                won = false
            }
            switch apply(change, to: &current!) {
            case .applied:
                tally.applied += 1
                if change.version.replica == localReplica { tally.foreignChangesUnderOwnID += 1 }
                won = true
            case .superseded: tally.superseded += 1
            case .rejected: tally.rejected += 1
            }
        }
        putBack()
        return tally
    }

    /// Applies many changes to a set of tasks keyed by id; returns the ids of
    /// the tasks that changed.
    @discardableResult
    public static func apply<S: Sequence>(_ changes: S, to tasks: inout [TaskID: TaskItem]) -> Set<TaskID> where S.Element == FieldChange {
        Set(apply(changes, to: &tasks, localReplica: nil).changedTasks)
    }
}
