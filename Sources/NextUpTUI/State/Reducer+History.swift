import NextUpCore

extension Reducer {
    /// Keys while the history (done and deleted tasks) is open: moving,
    /// `x` reopens a done task, `D` restores a deleted one, Enter shows its
    /// details, and the history key, Esc or `q` go back to the lists. Both
    /// writes are conditional like every other edit.
    static func performInHistory(_ action: Action, _ state: inout AppState) -> [Effect] {
        guard var history = state.history else { return [] }
        let index = history.selectedIndex ?? 0
        let height = state.layout.historyRows
        switch action {
        case .moveDown: history.select(index: index + 1)
        case .moveUp: history.select(index: index - 1)
        case .top: history.select(index: 0)
        case .bottom: history.select(index: history.count - 1)
        case .pageDown: history.select(index: index + height)
        case .pageUp: history.select(index: index - height)
        case .history, .quit:
            state.history = nil
            return [.reload]
        case .help: state.showHelp = true
        case .details, .redraw, .sync, .undo, .redo:
            return perform(action, &state)
        case .toggleDone, .delete:
            guard let task = state.selectedTask else {
                state.say(history.count == 0 ? "nothing done or deleted yet" : "no task selected")
                return []
            }
            let name = "“\(TerminalWidth.truncate(Sanitizer.visible(task.title), to: 30))”"
            let write: Write, inverse: Write, what: String
            if action == .toggleDone {
                guard task.isDone, !task.deleted else {
                    state.say(task.deleted ? "\(name) is deleted — D restores it" : "\(name) is open already")
                    return []
                }
                (write, inverse, what) = (.reopen(task.id), .complete(task.id), "reopen")
            } else {
                guard task.deleted else {
                    state.say("\(name) is not deleted — x reopens a done task")
                    return []
                }
                (write, inverse, what) = (.restore(task.id), .delete(task.id), "restore")
            }
            return [.write(write, seen: task.seen(write.fields),
                           undo: UndoEntry(inverse: inverse, original: write, description: "\(what) of \(name)"))]
        default:
            state.say("in the history: x reopens, D restores, Enter shows details, Esc goes back")
        }
        state.history = history
        return []
    }
}
