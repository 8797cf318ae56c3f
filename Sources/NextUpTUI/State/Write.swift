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
        }
    }
}
