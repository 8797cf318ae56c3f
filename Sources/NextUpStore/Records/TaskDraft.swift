import NextUpCore

/// What `add` (or an import) makes a new task from: already-validated values,
/// by field (the field table's registers), plus tags.
public struct TaskDraft: Sendable, Equatable {
    /// Values of known fields; anything not here starts unset.
    public var values: [TaskField: FieldValue] = [:]
    /// Put the new task at the bottom of Next Up.
    public var nextUp: Bool = false
    /// Tag names, already validated (``TaskText/tag(_:)``).
    public var tags: [String] = []

    /// - Throws: ``TaskInputError`` for an empty title.
    public init(title: String) throws { values[.title] = .string(try TaskText.title(title)) }

    /// The title (already validated: ``TaskText/title(_:)``).
    public var title: String {
        get { values[.title]?.stringValue ?? "" }
        set { values[.title] = .string(newValue) }
    }
    public var notes: String {
        get { values[.notes]?.stringValue ?? "" }
        set { values[.notes] = .string(newValue) }
    }
    public var urgency: Urgency? {
        get { values[.urgency]?.stringValue.flatMap(Urgency.init(rawValue:)) }
        set { values[.urgency] = newValue.map { .string($0.rawValue) } }
    }
    public var importance: Importance? {
        get { values[.importance]?.intValue.flatMap { Importance(rawValue: Int($0)) } }
        set { values[.importance] = newValue.map { .int(Int64($0.rawValue)) } }
    }
    public var duration: TaskDuration? {
        get { values[.duration]?.intValue.flatMap { try? TaskDuration(minutes: Int($0)) } }
        set { values[.duration] = newValue.map { .int(Int64($0.minutes)) } }
    }
    public var category: String? {
        get { values[.category]?.stringValue }
        set { values[.category] = newValue.map(FieldValue.string) }
    }
    public var due: DueDate? {
        get { values[.due]?.stringValue.flatMap { try? DueDate.parse($0) } }
        set { values[.due] = newValue.map { .string($0.description) } }
    }

    /// The initial field values, in field-table order, then the tags.
    var fields: [(TaskField, FieldValue)] {
        var f = FieldSpec.table.compactMap { spec in values[spec.field].map { (spec.field, $0) } }
        for tag in tags { f.append((.tag(tag), .bool(true))) }
        return f
    }
}
