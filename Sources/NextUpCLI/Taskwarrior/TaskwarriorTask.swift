import NextUpCore

/// One task as Taskwarrior's `task export` writes it (2.6 and 3.x), read but
/// not yet mapped: the attributes nextup maps have typed slots, every other
/// attribute (UDAs, `depends`, `recur`, `parent`, `wait`, `scheduled`, …) is
/// kept as its JSON text, so that nothing is lost on the way back.
/// Taskwarrior's computed `id` and `urgency` are not data and are dropped.
struct TaskwarriorTask: Equatable, Sendable {
    enum Status: String, Sendable, CaseIterable {
        case pending, waiting, completed, deleted, recurring
    }

    struct Annotation: Equatable, Sendable {
        /// Milliseconds since the epoch.
        var entry: Int64
        var description: String
    }

    var uuid: TaskID
    var description: String
    var status: Status
    /// Milliseconds since the epoch.
    var entry: Int64?
    var modified: Int64?
    var end: Int64?
    var start: Int64?
    var due: Int64?
    var priority: String?
    var project: String?
    var tags: [String] = []
    var annotations: [Annotation] = []
    /// Every other attribute, by name, as compact JSON text.
    var other: [String: String] = [:]

    /// The attributes that are computed by Taskwarrior, not stored.
    static let computed: Set<String> = ["id", "urgency"]
    /// The date attributes Taskwarrior defines; each must be `YYYYMMDDTHHMMSSZ`.
    static let dateAttributes: Set<String> = ["entry", "modified", "end", "start", "due", "wait", "scheduled", "until"]
    /// The attributes with a slot of their own; every other one (computed
    /// ones aside) is kept in ``other``.
    static let mapped: Set<String> = ["uuid", "description", "status", "entry", "modified", "end", "start", "due",
                                      "priority", "project", "tags", "annotations"]
}

extension TaskwarriorTask {
    /// A task from its attributes as read: `dates` (milliseconds, by
    /// attribute) fill the date slots, and a date attribute without a slot
    /// (`wait`, `scheduled`, `until`) is kept in ``other`` in Taskwarrior's
    /// own spelling. Both readers build tasks through here.
    init(uuid: TaskID, description: String, status: Status, dates: [String: Int64], priority: String?, project: String?) {
        self.init(uuid: uuid, description: description, status: status)
        entry = dates["entry"]
        modified = dates["modified"]
        end = dates["end"]
        start = dates["start"]
        due = dates["due"]
        self.priority = priority
        self.project = project
        for (key, date) in dates where !Self.mapped.contains(key) {
            other[key] = "\"\(TaskwarriorDate.format(date))\""
        }
    }
}
