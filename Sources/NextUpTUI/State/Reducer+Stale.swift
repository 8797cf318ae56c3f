import NextUpCore

extension Reducer {
    /// A write refused because something it depended on moved on since the UI
    /// saw it. Nothing was written; the person is shown what the field holds
    /// now and who changed it — a prompt reopens with its text and asks.
    static func refuseStale(_ stale: StaleWrite, _ attempt: Attempt, _ state: inout AppState) {
        let name = state.rows[stale.task].map { "“\(TerminalWidth.truncate(Sanitizer.visible($0.title), to: 30))”" } ?? stale.task.short
        let now = "\(describe(stale.field, stale.current)), changed \(who(stale.version, state))"
        switch attempt {
        case .edit:
            if var prompt = state.submitted, prompt.task == stale.task {
                prompt.conflict = Prompt.Conflict(field: stale.field, text: now, version: stale.version)
                state.prompt = prompt
                state.submitted = nil
            } else {
                state.say("\(name): \(now); nothing changed", error: true)
            }
        case .undo(let entry):
            state.say("cannot undo \(entry.description): \(now); nothing changed", error: true)
        case .redo(let entry):
            state.say("cannot redo \(entry.description): \(now); nothing changed", error: true)
        }
    }

    /// "the title is now “Renamed”", "it was deleted", "it is now done".
    static func describe(_ field: TaskField, _ value: FieldValue) -> String {
        switch field {
        case .deleted: return value == .bool(true) ? "it was deleted" : "it was restored"
        case .done: return value == .null ? "it was reopened" : "it is now done"
        case .nextUp: return value == .null ? "it is now in the Backlog" : "its place in Next Up moved"
        default: return "\(field.spokenName) is now \(field.words(for: value))"
        }
    }

    /// "on this machine" (another window or command on this store) or "on
    /// another machine" (through the peer folder).
    static func who(_ version: Version?, _ state: AppState) -> String {
        guard let version, let mine = state.replica else { return "elsewhere" }
        return version.replica == mine ? "on this machine" : "on another machine"
    }
}
