extension TaskField {
    /// An opaque register that, holding `true`, keeps its task out of every
    /// list, count and id lookup: a record kept only to be written back
    /// (a Taskwarrior recurring template). It is still exported, merged and
    /// synced like any other register.
    public static let hidden = TaskField(rawValue: "hidden")!
}

extension TaskItem {
    /// Whether the task is a hidden record (``TaskField/hidden``).
    public var isHidden: Bool { extra[.hidden] == .bool(true) }
}
