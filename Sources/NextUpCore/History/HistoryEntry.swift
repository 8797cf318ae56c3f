/// One change of one field of one task as the history holds it: the value,
/// the version that wrote it, and its note. Every replica that received the
/// same changes holds the same entries (``TaskHistory``'s contract).
public struct HistoryEntry: Hashable, Sendable {
    public let field: TaskField
    public let value: FieldValue
    public let version: Version
    public var note: ChangeNote?

    public init(field: TaskField, value: FieldValue, version: Version, note: ChangeNote?) {
        self.field = field
        self.value = value
        self.version = version
        self.note = note
    }

    public init(_ change: FieldChange) {
        self.init(field: change.field, value: change.value, version: change.version, note: change.note)
    }
}
