import NextUpCore

/// One line of the detail view's changes pane: one entry of the task's
/// history (``TaskHistory``), in words, with what restoring it writes and
/// the version its field held when it was read (the stale-write check).
public struct ChangeLine: Equatable, Sendable {
    /// `2026-11-27 10:04  laptop (tui)  title: “a” → “b”`.
    public var text: String
    /// "lost a race with desktop's edit"; nil when it did not.
    public var race: String?
    public var field: TaskField
    public var value: FieldValue
    /// The field's version when the history was read (nil: never written).
    public var fieldVersion: Version?
    /// Whether the field holds this value now.
    public var isCurrent: Bool
    /// Whether a person may write this value back (``TaskStore/restorable(_:)``).
    public var restorable: Bool

    public init(text: String, race: String?, field: TaskField, value: FieldValue, fieldVersion: Version?,
                isCurrent: Bool, restorable: Bool) {
        self.text = text
        self.race = race
        self.field = field
        self.value = value
        self.fieldVersion = fieldVersion
        self.isCurrent = isCurrent
        self.restorable = restorable
    }
}
