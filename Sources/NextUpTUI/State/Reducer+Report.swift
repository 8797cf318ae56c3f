import NextUpCore

extension Reducer {
    /// What the status line says once `write` succeeded: the one place that
    /// words every write of this UI, from the task as the write left it
    /// (`task`; nil: from the write alone). A task the write leaves outside
    /// the active filter gets "(hidden by the filter)", so nothing written
    /// vanishes without a word.
    static func report(_ write: Write, _ task: TaskItem?, _ state: AppState) -> String {
        let name = task.map { "“\(TerminalWidth.truncate(Sanitizer.visible($0.title), to: 30))”" } ?? "the task"
        let text: String
        switch write {
        case .add(let title, let toNextUp):
            let shown = "“\(TerminalWidth.truncate(Sanitizer.visible(task?.title ?? title), to: 30))”"
            text = (toNextUp ? "added to Next Up: " : "added: ") + shown
        case .setTitle(_, let title): text = "title: “\(TerminalWidth.truncate(Sanitizer.visible(task?.title ?? title), to: 40))”"
        case .setUrgency(_, let u): text = "urgency: \((task?.urgency ?? u)?.label ?? "?")"
        case .setImportance(_, let i): text = "importance: \((task?.importance ?? i).map { String($0.rawValue) } ?? "?")"
        case .setDuration(_, let d): text = "duration: \((task?.duration ?? d)?.description ?? "?")"
        case .setCategory(_, let c): text = "category: \((task.map(\.category) ?? c).map(Sanitizer.visible) ?? "?")"
        case .setDue(_, let d):
            if let due = task.map(\.due) ?? d {
                let when = DueState(due, today: state.today)
                text = "due: \(due.description)" + (when == .none ? "" : " (\(when.word))")
            } else {
                text = "due: ?"
            }
        case .setNotes(_, let notes): text = notes.isEmpty ? "notes cleared — z undoes" : "notes saved — z undoes"
        case .setTags(_, let tags):
            let names = tags.keys.sorted()
            if let added = names.first(where: { tags[$0] == true }) {
                let spelled = task?.tagNames.first { TextMatch.same($0, added) } ?? added
                text = "tagged +\(Sanitizer.visible(spelled))"
            } else {
                text = "untagged \(names.map(Sanitizer.visible).joined(separator: ", "))"
            }
        case .complete: text = "done \(name) — x again reopens, z undoes"
        case .reopen: text = "reopened \(name) — z undoes"
        case .delete: text = "deleted \(name) — z undoes"
        case .restore: text = "restored \(name) — z undoes"
        case .placeInNextUp(let id, _): text = state.rows[id]?.isNextUp == true ? "moved in Next Up" : "moved to Next Up"
        case .removeFromNextUp: text = "moved to Backlog"
        case .setRecurrence(_, let rule):
            text = (task.map(\.recur) ?? rule).map { "repeats \($0.words) — z undoes" } ?? "\(name) no longer repeats — z undoes"
        case .setDefer(_, let date):
            text = (task.map(\.deferDate) ?? date).map { "deferred until \($0.description) — z undoes" } ?? "defer date cleared — z undoes"
        case .skipOccurrence: text = "skipped this occurrence of \(name); the next one is in the Backlog"
        case .completeOccurrence: text = "done \(name); the next one is in the Backlog"
        case .stopSeries: text = "\(name) no longer repeats"
        case .restoreValue(_, let field, let value): text = "\(name): restored \(TaskHistory.words(field, old: nil, new: value))"
        case .thisOnly(let inner): text = report(inner, task, state) + " (this one only)"
        }
        return text + (task.map { isHiddenByFilter($0, state) } == true ? " (hidden by the filter)" : "")
    }

    /// Whether the lists leave `task` out because of the filter alone: it
    /// would be listed (open, or done in this session) but does not pass.
    static func isHiddenByFilter(_ task: TaskItem, _ state: AppState) -> Bool {
        guard !state.filter.isEmpty, !task.deleted, task.isOpen || state.keepDone.contains(task.id) else { return false }
        return !state.filter.matches(task, today: state.today)
    }
}
