/// What the Backlog's orders read of a task (``TaskOrdering/order(_:by:nowMillis:)``):
/// its id and the fields of ``BacklogScore`` and the sort modes. A small
/// value, so that a whole Backlog is ranked without holding whole tasks.
public struct RankKey: Sendable, Equatable {
    public var id: TaskID
    public var created: Int64
    public var urgency: Urgency?
    public var importance: Importance?
    public var duration: TaskDuration?
    public var due: DueDate?

    public init(id: TaskID, created: Int64, urgency: Urgency?, importance: Importance?, duration: TaskDuration?, due: DueDate?) {
        self.id = id
        self.created = created
        self.urgency = urgency
        self.importance = importance
        self.duration = duration
        self.due = due
    }

    /// The key of `task`.
    public init(_ task: TaskItem) {
        id = task.id
        created = task.created
        urgency = task.urgency
        importance = task.importance
        duration = task.duration
        due = task.due
    }
}
