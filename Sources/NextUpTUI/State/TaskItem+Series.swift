import NextUpCore

extension TaskItem {
    /// The series' rule; nil for a task that does not repeat (or stopped).
    var recurrence: RecurrenceRule? { recur }

    /// Which occurrence of its series the task is.
    var occurrenceID: OccurrenceID? { occurrence }

    /// The date before which the task is in neither list.
    var deferredUntil: DueDate? { deferDate }

    static let deferField = TaskField.deferDate
}
