import NextUpCore
@testable import NextUpTUI

/// Small builders for tasks and states.
enum Fixture {
    static let now: Int64 = 1_800_000_000_000

    static func task(_ title: String, urgency: Urgency? = nil, importance: Importance? = nil, minutes: Int? = nil,
                     category: String? = nil, nextUp: String? = nil, created: Int64 = now - 1_000,
                     done: Bool = false, version: Int64 = 1) -> TaskItem {
        var t = TaskItem(id: TaskID.make())
        t.title = title
        t.urgency = urgency
        t.importance = importance
        t.duration = minutes.map { try! TaskDuration(minutes: $0) }
        t.category = category
        t.nextUpPosition = nextUp
        t.created = created
        t.completedAt = done ? now : nil
        t.versions[.title] = Version(timestamp: HybridTimestamp(rawValue: version), replica: replica)
        return t
    }

    static let replica = ReplicaID.make()

    /// A state showing these tasks as they are listed by the memory backend.
    static func state(_ tasks: [TaskItem], width: Int = 80, height: Int = 24) -> AppState {
        var s = AppState(width: width, height: height, nowMillis: now)
        let backend = MemoryBackend(tasks: tasks)
        let (n, b) = try! backend.listIDs(ListQuery(), nowMillis: now)
        _ = Reducer.reduce(&s, .reloaded(Listing(nextUp: n, backlog: b, rows: tasks), external: false))
        return s
    }

    static func keys(_ text: String) -> [Event] { text.map { .key(.char($0)) } }
}

extension AppState {
    /// Sends events, collecting every effect.
    mutating func send(_ events: [Event]) -> [Effect] {
        events.flatMap { Reducer.reduce(&self, $0) }
    }
    mutating func send(_ events: Event...) -> [Effect] { send(events) }
}

extension Fixture {
    /// The effect of a key's edit of `task`: written only if the fields it
    /// changes still hold the versions the row showed.
    static func keyEdit(_ write: Write, of task: TaskItem, inverse: Write, _ description: String) -> Effect {
        .write(write, seen: task.seen(write.fields), undo: UndoEntry(inverse: inverse, original: write, description: description))
    }

    /// The effect of a prompt's edit of `task`: written only if its field and
    /// the task's done and deleted state are as when the prompt opened.
    static func promptEdit(_ write: Write, of task: TaskItem, field: TaskField, inverse: Write, _ description: String) -> Effect {
        .write(write, seen: task.seen([field, .done, .deleted]), undo: UndoEntry(inverse: inverse, original: write, description: description))
    }
}

extension TaskBackend {
    /// An unconditional write, returning the task's id (test shorthand).
    @discardableResult
    func perform(_ write: Write) throws -> TaskID { try perform(write, expecting: [:]).task.id }
}
