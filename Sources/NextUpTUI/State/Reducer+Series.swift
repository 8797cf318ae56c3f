import NextUpCore

extension Reducer {
    /// The keys of repeating and deferred tasks: the rule and the defer date
    /// are prompts (written only if the field still holds what the prompt
    /// saw, like every prompt); skipping an occurrence and stopping a series
    /// ask first, and write only if the occurrence is still as the question
    /// showed it (open, same rule, same occurrence).
    static func series(_ action: Action, _ task: TaskItem, _ state: inout AppState) -> [Effect] {
        let id = task.id
        let rule = task.recur
        switch action {
        case .setRecurrence:
            state.prompt = Prompt(kind: .recurrence(id), text: rule?.rrule ?? "",
                                  seen: task.seen([.recur, .occurrence, .done, .deleted]))
        case .setDefer:
            state.prompt = Prompt(kind: .deferDate(id), text: task.deferDate?.description ?? "",
                                  seen: task.seen([TaskField.deferDate, .done, .deleted]))
        case .skipOccurrence, .stopSeries:
            guard rule != nil else {
                let name = TerminalWidth.truncate(Sanitizer.visible(task.title), to: 30)
                let key = state.keyMap.keys(for: .setRecurrence).first?.name ?? "(unbound)"
                state.say("“\(name)” does not repeat; \(key) sets a rule")
                return []
            }
            state.prompt = Prompt(kind: action == .skipOccurrence ? .confirmSkip(id) : .confirmStop(id),
                                  seen: task.seen([.recur, .occurrence, .done, .deleted]))
        default:
            break
        }
        return []
    }

    /// A yes-or-no prompt: `y` answers yes, any other key closes it.
    static func confirm(_ key: Key, _ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        guard key == .char("y") || key == .char("Y") else {
            state.prompt = nil
            state.say("nothing changed")
            return []
        }
        return submit(prompt, &state)
    }

    /// The writes of the series prompts; a rule or date that cannot be read
    /// throws its one line, shown on the status line with the prompt open.
    static func submitSeries(_ prompt: Prompt, _ state: inout AppState) throws -> [Effect] {
        let text = prompt.editor.text.trimmingCharacters(in: .whitespaces)
        switch prompt.kind {
        case .recurrence(let id):
            let value = text.isEmpty || text.lowercased() == "none" ? nil : try RecurrenceRule.parse(text)
            let old = prompt.original.isEmpty ? nil : try? RecurrenceRule.parse(prompt.original)
            guard value != old else { return [] }
            // `none` on a series stops it as `X` does (its next occurrence's
            // id marked deleted, so one made apart on another machine arrives
            // deleted), not by clearing the rule alone.
            if value == nil { return [.write(.stopSeries(id), seen: prompt.seen, undo: nil)] }
            return [undoable(.setRecurrence(id, value), .setRecurrence(id, old), "repeat", prompt)]
        case .deferDate(let id):
            let value = text.isEmpty ? nil : try DueDate.parse(text, today: state.today)
            let old = prompt.original.isEmpty ? nil : try? DueDate.parse(prompt.original)
            guard value != old else { return [] }
            return [undoable(.setDefer(id, value), .setDefer(id, old), "defer date", prompt)]
        case .confirmSkip(let id):
            return [.write(.skipOccurrence(id, on: state.today), seen: prompt.seen, undo: nil)]
        case .confirmStop(let id):
            return [.write(.stopSeries(id), seen: prompt.seen, undo: nil)]
        default:
            return []
        }
    }

    /// The later view: the lists show only deferred tasks (the filter
    /// `is:later`), until the key is pressed again.
    static func toggleLater(_ state: inout AppState) -> [Effect] {
        guard let later = try? ListFilter.parse(AppState.laterQuery) else { return [] }
        if state.filter == later {
            state.filter = ListFilter()
            state.say("back to the lists")
        } else {
            state.filter = later
            state.say("later: deferred tasks, by their lists — \(state.keyMap.keys(for: .later).first?.name ?? "(unbound)") goes back")
        }
        state.showDetail = false
        return [.reload]
    }
}
