/// Everything a key can do outside a prompt. The raw values are the names
/// used in the config file's key bindings (action → key).
public enum Action: String, CaseIterable, Sendable {
    case moveDown = "move-down"
    case moveUp = "move-up"
    case top
    case bottom
    case pageDown = "page-down"
    case pageUp = "page-up"
    case switchPane = "switch-pane"
    case add
    case editTitle = "edit-title"
    case cycleUrgency = "cycle-urgency"
    case cycleImportance = "cycle-importance"
    case setDuration = "set-duration"
    case cycleCategory = "cycle-category"
    case typeCategory = "type-category"
    case setDue = "set-due"
    case editTags = "edit-tags"
    case editNotes = "edit-notes"
    case details
    case history
    case toggleNextUp = "toggle-next-up"
    case reorderDown = "reorder-down"
    case reorderUp = "reorder-up"
    case toggleDone = "toggle-done"
    case delete
    case undo
    case redo
    case filter
    case sort
    case sync
    case help
    case quit
    case redraw
    case setRecurrence = "set-recurrence"
    case setDefer = "set-defer"
    case skipOccurrence = "skip-occurrence"
    case stopSeries = "stop-series"
    case later
    case olderChange = "older-change"
    case newerChange = "newer-change"
    case restoreChange = "restore-change"

    /// One line for the help overlay.
    public var summary: String {
        switch self {
        case .moveDown: return "move down"
        case .moveUp: return "move up"
        case .top: return "first row"
        case .bottom: return "last row"
        case .pageDown: return "page down"
        case .pageUp: return "page up"
        case .switchPane: return "other pane"
        case .add: return "add a task"
        case .editTitle: return "edit title"
        case .cycleUrgency: return "urgency ? → urgent → not urgent → ?"
        case .cycleImportance: return "importance ? → 1 → 2 → 3 → ?"
        case .setDuration: return "set duration (30m, 1h30m, 90)"
        case .cycleCategory: return "next category"
        case .typeCategory: return "type a category (Tab completes)"
        case .setDue: return "due date (2026-12-24, today, fri, +3d)"
        case .editTags: return "add a tag (name) or remove one (-name); Tab completes"
        case .editNotes: return "edit notes in $EDITOR"
        case .details: return "details of the task (every field)"
        case .history: return "history: done and deleted tasks"
        case .toggleNextUp: return "move to / from Next Up"
        case .reorderDown: return "move down in Next Up"
        case .reorderUp: return "move up in Next Up"
        case .toggleDone: return "done / undone"
        case .delete: return "delete (z undoes)"
        case .undo: return "undo this session's last edit, if nobody changed it since"
        case .redo: return "redo what z undid, if nobody changed it since"
        case .filter: return "filter as you type: words, cat:\"Deep Work\", due:today, is:urgent (Esc clears)"
        case .sort: return "backlog sort: score, due, duration, created"
        case .sync: return "sync now"
        case .help: return "this help"
        case .quit: return "quit"
        case .redraw: return "redraw the screen"
        case .setRecurrence: return "repeat (every monday, 3 days after done, or an RRULE)"
        case .setDefer: return "defer until a date: in neither list before it"
        case .skipOccurrence: return "skip this occurrence of a repeating task (asks)"
        case .stopSeries: return "stop repeating (asks)"
        case .later: return "later: deferred tasks (again goes back)"
        case .olderChange: return "in the details: select an older change"
        case .newerChange: return "in the details: select a newer change"
        case .restoreChange: return "in the details: write the selected change's value back (if unchanged since shown)"
        }
    }
}
