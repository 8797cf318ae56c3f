/// A task with every field's current value and the version that wrote it.
///
/// A value type with no behaviour of its own beyond reading and writing fields
/// by name; validation happens where values enter (``TaskField/accepts(_:)``,
/// the parsers), versions are assigned by the store, merging is ``Merge``.
public struct TaskItem: Hashable, Sendable, Identifiable {
    public let id: TaskID
    public var title: String = ""
    public var notes: String = ""
    public var urgency: Urgency?
    public var importance: Importance?
    public var duration: TaskDuration?
    public var category: String?
    public var due: DueDate?
    /// Milliseconds since the epoch when completed; nil when open.
    public var completedAt: Int64?
    /// The Next Up order key; nil when the task is in the Backlog.
    public var nextUpPosition: String?
    public var deleted: Bool = false
    /// Milliseconds since the epoch.
    public var created: Int64 = 0
    public var source: String?
    public var externalID: String?
    /// The rule of the series this task is the open occurrence of; nil for
    /// a task that does not recur (or whose series was stopped).
    public var recur: RecurrenceRule?
    /// Which occurrence of which series the task is; nil for a plain task.
    public var occurrence: OccurrenceID?
    /// The local date the task appears on: before it, the task is in
    /// neither list (``isDeferred(today:)``).
    public var deferDate: DueDate?
    /// The version of every field that has ever been written.
    public var versions: [TaskField: Version] = [:]

    public init(id: TaskID) { self.id = id }

    public var isDone: Bool { completedAt != nil }
    public var isNextUp: Bool { nextUpPosition != nil }
    /// Open: neither done nor deleted.
    public var isOpen: Bool { !isDone && !deleted }
    /// TBD: some triage attribute (``TaskField/triage``) is unset. The store's
    /// SQL form of this rule is generated from the same list.
    public var isTBD: Bool { TaskField.triage.contains { value(of: $0) == .null } }
    /// Deferred: its defer date is after `today` (the person's local date),
    /// so it is in neither list until that date; `list --later` shows it.
    public func isDeferred(today: DueDate) -> Bool { deferDate.map { $0 > today } ?? false }
    /// Whether the task is an occurrence of a series that goes on (it has a rule).
    public var isRecurring: Bool { recur != nil }

    /// The newest field version's timestamp (DESIGN.md §2: `modified`).
    public var modified: HybridTimestamp {
        var newest: HybridTimestamp?
        for version in versions.values where newest.map({ version.timestamp > $0 }) ?? true { newest = version.timestamp }
        return newest ?? .zero
    }

    /// The values of the registers that are not known fields: tag elements
    /// (`tag:<name>` → present or not) and opaque fields.
    public var extra: [TaskField: FieldValue] = [:]

    /// The tags present, sorted (case-insensitively, then exactly).
    public var tags: [String] { Self.tags(in: extra) }

    /// The tags present among `extra`'s registers (``extra``), sorted as
    /// ``tags``: for a task read without a ``TaskItem``.
    public static func tags(in extra: [TaskField: FieldValue]) -> [String] {
        if extra.isEmpty { return [] }
        return extra.compactMap { field, value in value == .bool(true) ? field.tagName : nil }
            .sorted { let a = $0.lowercased(), b = $1.lowercased(); return a != b ? a < b : $0 < $1 }
    }

    /// Whether a tag matching `name` is present (``TextMatch/fold(_:)``:
    /// case and accents ignored, as the filter's `tag:`).
    public func hasTag(_ name: String) -> Bool {
        let folded = TextMatch.fold(name)
        return tags.contains { TextMatch.fold($0) == folded }
    }

    /// The value of `field` in its wire shape (from the field table for known
    /// fields; unset registers read as null).
    public func value(of field: TaskField) -> FieldValue {
        // The table's entry is read in place: copying a FieldSpec out
        // retains every closure it holds (a tenth of list --json).
        if field.isKnown { return FieldSpec.table[field.ordinal].get(self) }
        return extra[field] ?? (field.tagName != nil ? .bool(false) : .null)
    }

    /// Sets `field` from its wire shape without validating it: for values
    /// read back from the store, which validated them on the way in.
    public mutating func restore(_ field: TaskField, to value: FieldValue) {
        if field.isKnown { FieldSpec.table[field.ordinal].set(&self, value) } else { extra[field] = value }
    }

    /// Sets `field` from its wire shape. Returns false, changing nothing, when
    /// the value is not one the field accepts.
    @discardableResult
    public mutating func set(_ field: TaskField, to value: FieldValue) -> Bool {
        guard field.accepts(value) else { return false }
        if field.isKnown { FieldSpec.table[field.ordinal].set(&self, value) } else { extra[field] = value }
        return true
    }

    /// Every field that has a version, as changes; what a snapshot carries.
    public var allChanges: [FieldChange] {
        versions.sorted { $0.key < $1.key }.map { FieldChange(task: id, field: $0.key, value: value(of: $0.key), version: $0.value) }
    }
}
