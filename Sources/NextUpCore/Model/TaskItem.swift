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

    /// The newest field version's timestamp (DESIGN.md §2: `modified`).
    public var modified: HybridTimestamp { versions.values.map(\.timestamp).max() ?? .zero }

    /// The value of `field` in its wire shape.
    public func value(of field: TaskField) -> FieldValue {
        switch field {
        case .title: return .string(title)
        case .notes: return .string(notes)
        case .urgency: return urgency.map { .string($0.rawValue) } ?? .null
        case .importance: return importance.map { .int(Int64($0.rawValue)) } ?? .null
        case .duration: return duration.map { .int(Int64($0.minutes)) } ?? .null
        case .category: return category.map { .string($0) } ?? .null
        case .due: return due.map { .string($0.description) } ?? .null
        case .done: return completedAt.map { .int($0) } ?? .null
        case .nextUp: return nextUpPosition.map { .string($0) } ?? .null
        case .deleted: return .bool(deleted)
        case .created: return .int(created)
        case .source: return source.map { .string($0) } ?? .null
        case .externalID: return externalID.map { .string($0) } ?? .null
        }
    }

    /// Sets `field` from its wire shape. Returns false, changing nothing, when
    /// the value is not one the field accepts.
    @discardableResult
    public mutating func set(_ field: TaskField, to value: FieldValue) -> Bool {
        guard field.accepts(value) else { return false }
        switch field {
        case .title: title = value.stringValue ?? ""
        case .notes: notes = value.stringValue ?? ""
        case .urgency: urgency = value.stringValue.flatMap(Urgency.init(rawValue:))
        case .importance: importance = value.intValue.flatMap { Importance(rawValue: Int($0)) }
        case .duration: duration = value.intValue.flatMap { try? TaskDuration(minutes: Int($0)) }
        case .category: category = value.stringValue
        case .due: due = value.stringValue.flatMap { try? DueDate.parse($0) }
        case .done: completedAt = value.intValue
        case .nextUp: nextUpPosition = value.stringValue
        case .deleted: if case .bool(let b) = value { deleted = b }
        case .created: created = value.intValue ?? 0
        case .source: source = value.stringValue
        case .externalID: externalID = value.stringValue
        }
        return true
    }

    /// Every field that has a version, as changes; what a snapshot carries.
    public var allChanges: [FieldChange] {
        versions.sorted { $0.key < $1.key }.map { FieldChange(task: id, field: $0.key, value: value(of: $0.key), version: $0.value) }
    }
}
