/// One versioned write of one field of one task: the unit that the store
/// records, the peer-folder log carries, and ``Merge`` applies.
///
/// Two changes are equal when task, field, value and version are: the
/// ``note`` (origin and seen version, for the history) travels with the
/// change but is not part of what it is.
public struct FieldChange: Hashable, Sendable {
    public let task: TaskID
    public let field: TaskField
    public let value: FieldValue
    public let version: Version
    /// Where it was made and what its writer had seen; nil when unknown.
    public var note: ChangeNote?

    public init(task: TaskID, field: TaskField, value: FieldValue, version: Version, note: ChangeNote? = nil) {
        self.task = task
        self.field = field
        self.value = value
        self.version = version
        self.note = note
    }

    public static func == (lhs: FieldChange, rhs: FieldChange) -> Bool {
        lhs.task == rhs.task && lhs.field == rhs.field && lhs.version == rhs.version && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(task)
        hasher.combine(field)
        hasher.combine(value)
        hasher.combine(version)
    }
}
