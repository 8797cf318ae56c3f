import NextUpCore

/// A change the UI asks the store for, named by intent. Each one writes only
/// the field(s) it names, so a prompt never overwrites what another machine
/// changed in another field meanwhile.
public enum Write: Equatable, Sendable {
    case add(title: String, toNextUp: Bool)
    case setTitle(TaskID, String)
    case setUrgency(TaskID, Urgency?)
    case setImportance(TaskID, Importance?)
    case setDuration(TaskID, TaskDuration?)
    case setCategory(TaskID, String?)
    case setDue(TaskID, DueDate?)
    /// The whole notes text at once (from the editor); empty clears them.
    case setNotes(TaskID, String)
    /// Tag registers of the task, each present (true) or absent (false):
    /// adding one tag, or removing every spelling of one.
    case setTags(TaskID, [String: Bool])
    case complete(TaskID)
    case reopen(TaskID)
    case delete(TaskID)
    case restore(TaskID)
    /// Into Next Up or within it: the store's one placement intent, which
    /// lands exactly at the place even among tied order keys.
    case placeInNextUp(TaskID, NextUpPlace)
    case removeFromNextUp(TaskID)
    /// The task's rule: makes it a series, changes the series' rule, or
    /// (nil) stops it.
    case setRecurrence(TaskID, RecurrenceRule?)
    case setDefer(TaskID, DueDate?)
    /// Skips the occurrence on the person's local date: it is marked deleted
    /// and the series goes on.
    case skipOccurrence(TaskID, on: DueDate)
    /// Completes the occurrence on the person's local date and makes the
    /// next one.
    case completeOccurrence(TaskID, on: DueDate)
    /// Stops the series at this occurrence.
    case stopSeries(TaskID)
    /// A field's earlier value from the task's history, written back as a new edit.
    case restoreValue(TaskID, TaskField, FieldValue)
    /// A field edit (``fieldEdits``) of one occurrence of a series, for it
    /// alone: the series' value is kept for the occurrences after it.
    indirect case thisOnly(Write)

    /// The fields of its own task the write changes: what its expectation
    /// names, and what an undo of it must find as this session left them.
    public var fields: [TaskField] {
        switch self {
        case .add: return []
        case .setTitle: return [.title]
        case .setUrgency: return [.urgency]
        case .setImportance: return [.importance]
        case .setDuration: return [.duration]
        case .setCategory: return [.category]
        case .setDue: return [.due]
        case .setNotes: return [.notes]
        case .setTags(_, let tags): return tags.keys.sorted().map(TaskField.tag)
        case .complete, .reopen, .completeOccurrence: return [.done]
        case .delete, .restore: return [.deleted]
        case .placeInNextUp, .removeFromNextUp: return [.nextUp]
        case .setRecurrence, .stopSeries: return [.recur]
        case .setDefer: return [TaskField.deferDate]
        case .restoreValue(_, let field, _): return [field]
        case .skipOccurrence: return [.deleted]
        case .thisOnly(let write): return write.fields
        }
    }

    /// The task written, when it exists already.
    public var task: TaskID? {
        switch self {
        case .add: return nil
        case .setTitle(let id, _), .setUrgency(let id, _), .setImportance(let id, _), .setDuration(let id, _),
             .setCategory(let id, _), .setDue(let id, _), .setNotes(let id, _), .setTags(let id, _), .complete(let id), .reopen(let id), .delete(let id), .restore(let id),
             .placeInNextUp(let id, _), .removeFromNextUp(let id), .setRecurrence(let id, _), .setDefer(let id, _),
             .skipOccurrence(let id, _), .completeOccurrence(let id, _), .stopSeries(let id), .restoreValue(let id, _, _):
            return id
        case .thisOnly(let write): return write.task
        }
    }

    /// The field values of a write that edits fields of its task and nothing
    /// else (a title, a date, tags…), as the store's `edit` takes them; nil
    /// for the other writes.
    public var fieldEdits: [(TaskField, FieldValue)]? {
        switch self {
        case .setTitle(_, let s): return [(.title, .string(s))]
        case .setUrgency(_, let u): return [(.urgency, u.map { .string($0.rawValue) } ?? .null)]
        case .setImportance(_, let i): return [(.importance, i.map { .int(Int64($0.rawValue)) } ?? .null)]
        case .setDuration(_, let d): return [(.duration, d.map { .int(Int64($0.minutes)) } ?? .null)]
        case .setCategory(_, let c): return [(.category, c.map { .string($0) } ?? .null)]
        case .setDue(_, let d): return [(.due, d.map { .string($0.description) } ?? .null)]
        case .setNotes(_, let n): return [(.notes, .string(n))]
        case .setTags(_, let tags): return tags.sorted { $0.key < $1.key }.map { (.tag($0.key), .bool($0.value)) }
        case .restoreValue(_, let field, let value): return [(field, value)]
        case .thisOnly(let write): return write.fieldEdits
        default: return nil
        }
    }

    /// Whether the write edits a field an occurrence may hold apart from its
    /// series (``TaskField/canBeThisOnly``): on a repeating task the UI asks
    /// which of the two the edit is for.
    public var asksSeriesScope: Bool {
        guard case .some(let edits) = fieldEdits, !isThisOnly else { return false }
        return edits.contains { $0.0.canBeThisOnly }
    }

    public var isThisOnly: Bool {
        if case .thisOnly = self { return true }
        return false
    }
}
