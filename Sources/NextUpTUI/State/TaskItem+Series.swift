import NextUpCore

extension TaskItem {
    /// The series' rule; nil for a task that does not repeat (or stopped).
    var recurrence: RecurrenceRule? {
        guard case .string(let text) = value(of: .recur) else { return nil }
        return try? RecurrenceRule.parse(text)
    }

    /// Which occurrence of its series the task is.
    var occurrenceID: OccurrenceID? {
        guard case .string(let text) = value(of: .occurrence) else { return nil }
        return OccurrenceID(text)
    }

    /// The date before which the task is in neither list.
    var deferredUntil: DueDate? {
        guard case .string(let text) = value(of: Self.deferField) else { return nil }
        return try? DueDate.parse(text)
    }

    static let deferField = TaskField(rawValue: "defer")!
}
