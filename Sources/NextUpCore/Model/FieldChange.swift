/// One versioned write of one field of one task: the unit that the store
/// records, the peer-folder log carries, and ``Merge`` applies.
public struct FieldChange: Hashable, Sendable {
    public let task: TaskID
    public let field: TaskField
    public let value: FieldValue
    public let version: Version

    public init(task: TaskID, field: TaskField, value: FieldValue, version: Version) {
        self.task = task
        self.field = field
        self.value = value
        self.version = version
    }
}
