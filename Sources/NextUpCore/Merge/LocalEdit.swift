/// A local edit as a pure function: the one place local versions are made.
/// The store's intent-named writes, the in-memory sync fake and the TUI's
/// test backend only persist its outcome.
///
/// Contract:
/// - **Conditional.** A field already holding the value is no change: no
///   version, no clock tick, no change returned. (A field never written holds
///   its default — unset, empty, not deleted — so asking for that is no
///   change either.)
/// - **After what it saw.** Every version it makes is greater than every
///   version the task holds, and than everything the clock saw, so an edit
///   made after seeing a value wins over it on every replica, whatever the
///   machines' wall clocks say. A version ahead of this machine's clock
///   moves the clock only up to ``HybridClock/limit(now:)``: it affects the
///   versions of its own task only.
/// - **Checked against the version the caller saw.** When the edit would
///   change anything and a field named in `expecting` — one it writes, or
///   one the caller's decision rested on (a prompt's task being done or
///   deleted) — moved on since (another process, another replica, an import
///   wrote it), nothing is written: the edit throws ``StaleWrite`` naming
///   that field's current value and version.
/// - Values a field does not accept throw ``TaskInputError``.
public enum LocalEdit {
    public struct Outcome: Sendable, Equatable {
        /// The task after the edit.
        public var task: TaskItem
        /// The changes made; empty when the task already held every value.
        public var changes: [FieldChange]
        /// The clock after the edit (to be saved with the task).
        public var clock: HybridClock
    }

    /// Applies `fields` to `task` as a local edit by `replica` at physical
    /// time `now` (ms).
    ///
    /// - Parameters:
    ///   - importedAt: for a task being created from an import, the physical
    ///     time its record says it was last modified; its versions keep that
    ///     time (the clock still moves past it) unless it lies beyond the sane
    ///     future.
    ///   - expecting: per field, the version the caller saw (nil: the field
    ///     had never been written).
    public static func apply(_ fields: [(TaskField, FieldValue)], to task: TaskItem, clock: HybridClock,
                             replica: ReplicaID, now: Int64, importedAt: Int64? = nil,
                             expecting seen: [TaskField: Version?] = [:]) throws -> Outcome {
        var task = task
        var clock = clock
        let changes = try apply(fields, to: &task, clock: &clock, replica: replica, now: now, importedAt: importedAt, expecting: seen)
        return Outcome(task: task, changes: changes, clock: clock)
    }

    /// ``apply(_:to:clock:replica:now:importedAt:expecting:)`` in place: the
    /// same edit, made to `task` and `clock` themselves. Returns the changes
    /// made. When it throws, `task` and `clock` are as they were: every check
    /// comes before the first change.
    public static func apply(_ fields: [(TaskField, FieldValue)], to task: inout TaskItem, clock: inout HybridClock,
                             replica: ReplicaID, now: Int64, importedAt: Int64? = nil,
                             expecting seen: [TaskField: Version?] = [:]) throws -> [FieldChange] {
        var differing: [(TaskField, FieldValue)] = []
        differing.reserveCapacity(fields.count)
        for (field, value) in fields where task.value(of: field) != value { differing.append((field, value)) }
        guard !differing.isEmpty else { return [] }
        for (field, value) in differing where !field.accepts(value) {
            throw TaskInputError("'\(Sanitizer.visible(value.description))' is not a valid \(field.rawValue)")
        }
        // Written fields first (their conflict is the one to show), then the
        // others the caller named, in field order so the error is stable.
        if !seen.isEmpty {
            let written = Set(differing.map(\.0))
            for field in differing.map(\.0) + seen.keys.filter({ !written.contains($0) }).sorted() {
                if let expected = seen[field], task.versions[field] != expected {
                    throw StaleWrite(task: task.id, field: field, current: task.value(of: field), version: task.versions[field])
                }
            }
        }
        // After every version of the task, even one a clock ahead wrote; the
        // clock itself follows it only as far as this machine's time allows.
        let newest = task.versions.values.max()?.timestamp
        if let newest { clock.observe(newest, now: now) }
        var version = nextVersion(fresh: task.versions.isEmpty, clock: &clock, replica: replica, now: now, importedAt: importedAt)
        if let newest, version.timestamp <= newest { version = Version(timestamp: newest.successor, replica: replica) }
        var changes: [FieldChange] = []
        changes.reserveCapacity(differing.count)
        task.versions.reserveCapacity(task.versions.count + differing.count)
        for (field, value) in differing {
            task.restore(field, to: value)  // accepted above
            task.versions[field] = version
            changes.append(FieldChange(task: task.id, field: field, value: value, version: version))
        }
        return changes
    }

    /// The version of an edit, made after everything `clock` saw: a fresh
    /// task created from an import keeps its record's time (`importedAt`)
    /// unless it lies beyond the sane future; anything else ticks the clock.
    private static func nextVersion(fresh: Bool, clock: inout HybridClock, replica: ReplicaID, now: Int64, importedAt: Int64?) -> Version {
        let timestamp: HybridTimestamp
        if let importedAt, fresh, !HybridClock.isBeyondSaneFuture(HybridTimestamp(millis: importedAt), now: now) {
            timestamp = HybridTimestamp(millis: importedAt)
            clock.observe(timestamp, now: now)
        } else {
            timestamp = clock.tick(now: now)
        }
        return Version(timestamp: timestamp, replica: replica)
    }
}

/// A write refused because the field it would change moved on since the
/// writer saw it: another process, another machine or an import wrote it.
/// Nothing was written; ``current`` is what the field holds now.
public struct StaleWrite: Error, Equatable, Sendable, CustomStringConvertible {
    public let task: TaskID
    public let field: TaskField
    /// The value the field holds now.
    public let current: FieldValue
    /// The version that wrote it (nil: never written).
    public let version: Version?

    public init(task: TaskID, field: TaskField, current: FieldValue, version: Version?) {
        self.task = task
        self.field = field
        self.current = current
        self.version = version
    }

    public var description: String {
        "\(field.rawValue) of \(task.short) changed meanwhile; it is now '\(Sanitizer.visible(current.description))'"
    }
}
