import NextUpCore

/// What `add` (or an import) makes a new task from: already-validated values.
public struct TaskDraft: Sendable, Equatable {
    public var title: String
    public var notes: String = ""
    public var urgency: Urgency?
    public var importance: Importance?
    public var duration: TaskDuration?
    public var category: String?
    public var due: DueDate?
    /// Put the new task at the bottom of Next Up.
    public var nextUp: Bool = false
    public var source: String?
    public var externalID: String?

    /// - Throws: ``TaskInputError`` for an empty title.
    public init(title: String) throws { self.title = try TaskText.title(title) }

    /// The initial field values (the title and whatever is set).
    var fields: [(TaskField, FieldValue)] {
        var f: [(TaskField, FieldValue)] = [(.title, .string(title))]
        if !notes.isEmpty { f.append((.notes, .string(notes))) }
        if let urgency { f.append((.urgency, .string(urgency.rawValue))) }
        if let importance { f.append((.importance, .int(Int64(importance.rawValue)))) }
        if let duration { f.append((.duration, .int(Int64(duration.minutes)))) }
        if let category { f.append((.category, .string(category))) }
        if let due { f.append((.due, .string(due.description))) }
        if let source { f.append((.source, .string(source))) }
        if let externalID { f.append((.externalID, .string(externalID))) }
        return f
    }
}
