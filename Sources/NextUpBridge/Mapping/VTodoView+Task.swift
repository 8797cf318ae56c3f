import NextUpCore

extension VTodoView {
    /// The view of `task` as the bridge writes it: every mapped property,
    /// every extension present (empty when unset). `uid` is the file's
    /// `UID` when it is not the task's own (a series' later occurrence).
    public init(task: TaskItem, uid: String? = nil) {
        self.init(uid: uid ?? task.vtodoUID, title: task.title)
        notes = task.notes
        importance = task.importance?.rawValue
        due = task.due?.description
        start = task.deferDate?.description
        rrule = task.recur?.rrule
        completedAt = task.completedAt.map { $0 - (($0 % 1000) + 1000) % 1000 }
        cancelled = task.deleted
        var list: [String] = []
        if let category = task.category { list.append(category) }
        for tag in task.tags where !list.contains(tag) { list.append(tag) }
        categories = list
        self[.urgency] = task.urgency?.rawValue ?? ""
        self[.duration] = task.duration.map { String($0.minutes) } ?? ""
        self[.category] = task.category ?? ""
        self[.nextUp] = task.nextUpPosition ?? ""
    }

    /// This view with every extension it lacks taken from `other`: what the
    /// bridge remembers after reading a file that dropped some (they meant
    /// "no change").
    public func filling(from other: VTodoView) -> VTodoView {
        var out = self
        for (key, value) in other.extensions where out.extensions[key] == nil { out.extensions[key] = value }
        return out
    }

    /// The category this view names: its `X-NEXTUP-CATEGORY` when present,
    /// else the first of its `CATEGORIES` (a VTODO made elsewhere).
    public var namedCategory: String? {
        if let ext = self[.category] { return ext.isEmpty ? nil : ext }
        return categories.first
    }

    /// Its categories other than the category: the tags.
    public var tags: [String] {
        let category = namedCategory
        return categories.filter { $0 != category }
    }
}

extension VTodoView {
    /// The value this view gives `field`, in the store's shape (a completion
    /// time in whole seconds); nil for a field the view says nothing about
    /// (an extension it lacks, a field the mapping does not carry).
    public func fieldValue(_ field: TaskField) -> FieldValue? {
        switch field {
        case .title: return .string(title)
        case .notes: return .string(notes)
        case .importance: return importance.map { .int(Int64($0)) } ?? .null
        case .due: return due.map { .string($0) } ?? .null
        case .deferDate: return start.map { .string($0) } ?? .null
        case .done: return completedAt.map { .int($0) } ?? .null
        case .deleted: return .bool(cancelled)
        case .category: return namedCategory.map { .string($0) } ?? .null
        case .urgency: return self[.urgency].map { $0.isEmpty ? .null : .string($0) }
        case .duration: return self[.duration].map { $0.isEmpty ? .null : (Int64($0).map { .int($0) } ?? .null) }
        case .nextUp: return self[.nextUp].map { $0.isEmpty ? .null : .string($0) }
        default:
            if let tag = field.tagName { return .bool(tags.contains(tag)) }
            return nil
        }
    }

    /// `task`'s value of `field` as a view would carry it (a completion time
    /// in whole seconds), to compare with ``fieldValue(_:)``.
    public static func comparable(_ task: TaskItem, _ field: TaskField) -> FieldValue {
        comparable(task.value(of: field), field)
    }

    /// A task's `value` of `field` as a view would carry it.
    public static func comparable(_ value: FieldValue, _ field: TaskField) -> FieldValue {
        if field == .done, case .int(let ms) = value { return .int(ms - ((ms % 1000) + 1000) % 1000) }
        return value
    }
}
