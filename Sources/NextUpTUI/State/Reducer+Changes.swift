import NextUpCore

extension Reducer {
    /// The changes pane of the detail view: read when the view opens (and
    /// after a write while it is open), never on a reload or a list key;
    /// `[` and `]` select an entry, `R` writes its value back as a new edit
    /// — only while the field still holds the version it held when the
    /// pane was read (refused in the status line otherwise).
    static func changes(_ action: Action, _ state: inout AppState) -> [Effect] {
        guard state.showDetail, let task = state.selectedTask else {
            state.say("the changes of a task are in its details (\(state.keyMap.keys(for: .details).first?.name ?? "Enter"))")
            return []
        }
        guard state.changesOf == task.id, !state.changes.isEmpty else {
            state.say("no changes read for this task yet")
            return []
        }
        switch action {
        case .olderChange:
            state.changeSelected = min(state.changes.count - 1, state.changeSelected + 1)
        case .newerChange:
            state.changeSelected = max(0, state.changeSelected - 1)
        case .restoreChange:
            let line = state.changes[min(state.changeSelected, state.changes.count - 1)]
            guard line.restorable else {
                state.say("the \(line.field.spokenName) of a task is not restored from its history", error: true)
                return []
            }
            guard !line.isCurrent else {
                state.say("the \(line.field.spokenName) already holds that value")
                return []
            }
            return [.write(.restoreValue(task.id, line.field, line.value), seen: [line.field: line.fieldVersion], undo: nil)]
        default:
            break
        }
        return []
    }

    /// The history read for `id` (``Effect/loadChanges(_:)``).
    static func changesLoaded(_ id: TaskID, _ lines: [ChangeLine], _ state: inout AppState) {
        if state.changesOf != id { state.changeSelected = 0 }
        state.changesOf = id
        state.changes = lines
        state.changeSelected = min(state.changeSelected, max(0, lines.count - 1))
    }
}
