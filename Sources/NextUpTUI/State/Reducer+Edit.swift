import NextUpCore

extension Reducer {
    /// The single-keystroke edits of the selected task and the prompts that
    /// edit one field of it.
    static func edit(_ action: Action, _ task: TaskItem, _ state: inout AppState) -> [Effect] {
        let id = task.id
        let name = TerminalWidth.truncate(Sanitizer.visible(task.title), to: 30)
        func change(_ write: Write, undo: Write, _ what: String) -> [Effect] {
            [.write(write, undo: UndoEntry(inverse: undo, description: "\(what) of “\(name)”"))]
        }
        if let refusal = refusal(action, on: task) {
            state.say(refusal.replacingOccurrences(of: "%", with: "“\(name)”"))
            return []
        }
        switch action {
        case .editTitle:
            state.prompt = Prompt(kind: .title(id), text: task.title)
        case .setDuration:
            state.prompt = Prompt(kind: .duration(id), text: task.duration?.description ?? "")
        case .typeCategory:
            state.prompt = Prompt(kind: .category(id), text: task.category ?? "")
        case .cycleUrgency:
            let next: Urgency? = switch task.urgency { case nil: .urgent; case .urgent: .notUrgent; case .notUrgent: nil }
            state.say("urgency: \(next?.label ?? "?")")
            return change(.setUrgency(id, next), undo: .setUrgency(id, task.urgency), "urgency")
        case .cycleImportance:
            let next: Importance? = switch task.importance { case nil: .low; case .low: .medium; case .medium: .high; case .high: nil }
            state.say("importance: \(next.map { String($0.rawValue) } ?? "?")")
            return change(.setImportance(id, next), undo: .setImportance(id, task.importance), "importance")
        case .cycleCategory:
            guard !state.categories.isEmpty else {
                state.say("no categories configured; C types one")
                return []
            }
            let list = state.categories
            let next: String?
            if let current = task.category, let i = list.firstIndex(where: { TextMatch.same($0, current) }) {
                next = i + 1 < list.count ? list[i + 1] : nil
            } else {
                next = list[0]
            }
            state.say("category: \(next.map(Sanitizer.visible) ?? "?")")
            return change(.setCategory(id, next), undo: .setCategory(id, task.category), "category")
        case .toggleNextUp:
            if task.isNextUp {
                let ids = state.nextUp.ids
                let i = ids.firstIndex(of: id)
                let after = i.flatMap { $0 > 0 ? ids[$0 - 1] : nil }
                let before = i.flatMap { $0 + 1 < ids.count ? ids[$0 + 1] : nil }
                state.say("moved to Backlog")
                return change(.removeFromNextUp(id), undo: .placeInNextUp(id, .between(after: after, before: before)), "move to Backlog")
            }
            state.say("moved to Next Up")
            return change(.placeInNextUp(id, .end), undo: .removeFromNextUp(id), "move to Next Up")
        case .reorderDown, .reorderUp:
            guard state.focus == .nextUp, task.isNextUp else {
                state.say("J and K reorder Next Up; n moves a task there")
                return []
            }
            let ids = state.nextUp.ids
            guard let i = ids.firstIndex(of: id) else { return [] }
            let old = NextUpPlace.between(after: i > 0 ? ids[i - 1] : nil, before: i + 1 < ids.count ? ids[i + 1] : nil)
            let place: NextUpPlace
            if action == .reorderDown {
                guard i + 1 < ids.count else { return [] }
                place = .after(ids[i + 1])
            } else {
                guard i > 0 else { return [] }
                place = .before(ids[i - 1])
            }
            return change(.placeInNextUp(id, place), undo: .placeInNextUp(id, old), "reorder")
        case .toggleDone:
            if task.isDone {
                state.say("reopened")
                return change(.reopen(id), undo: .complete(id), "reopen")
            }
            state.keepDone.insert(id)
            state.say("done — x again reopens, z undoes")
            return change(.complete(id), undo: .reopen(id), "done")
        case .delete:
            state.say("deleted “\(name)” — z undoes")
            return change(.delete(id), undo: .restore(id), "delete")
        default:
            break
        }
        return []
    }

    // MARK: prompts

    static func handlePromptKey(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard var prompt = state.prompt else { return [] }
        switch key {
        case .escape, .ctrl("c"), .ctrl("g"):
            state.prompt = nil
            return []
        case .enter:
            return submit(prompt, &state)
        default:
            if prompt.editor.handle(key) { prompt.error = nil }
            state.prompt = prompt
            return []
        }
    }

    /// Submits a prompt: on bad input the prompt stays open with the problem
    /// shown; otherwise it closes and writes only its own field.
    static func submit(_ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        let text = prompt.editor.text
        var effects: [Effect] = []
        do {
            switch prompt.kind {
            case .add(let toNextUp):
                let title = try TaskText.title(text)
                effects = [.write(.add(title: title, toNextUp: toNextUp), undo: nil)]
            case .title(let id):
                let title = try TaskText.title(text)
                if title != prompt.original {
                    effects = [undoable(.setTitle(id, title), .setTitle(id, prompt.original), "title", prompt)]
                }
            case .duration(let id):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                let value = trimmed.isEmpty ? nil : try TaskDuration.parse(trimmed)
                let old = prompt.original.isEmpty ? nil : try? TaskDuration.parse(prompt.original)
                if value != old {
                    effects = [undoable(.setDuration(id, value), .setDuration(id, old), "duration", prompt)]
                }
            case .category(let id):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                let value = trimmed.isEmpty ? nil : try TaskText.category(trimmed)
                let old = prompt.original.isEmpty ? nil : prompt.original
                if value != old {
                    effects = [undoable(.setCategory(id, value), .setCategory(id, old), "category", prompt)]
                }
            case .filter:
                state.filter = ListFilter.parse(text)
                effects = [.reload]
            }
        } catch let error as TaskInputError {
            var open = prompt
            open.error = error.message
            state.prompt = open
            return []
        } catch {
            var open = prompt
            open.error = "\(error)"
            state.prompt = open
            return []
        }
        state.prompt = nil
        return effects
    }

    static func undoable(_ write: Write, _ inverse: Write, _ what: String, _ prompt: Prompt) -> Effect {
        .write(write, undo: UndoEntry(inverse: inverse, description: "\(what) change"))
    }

    /// Why `action` makes no sense on `task` (`%` stands for its name), or nil.
    /// A deleted task takes no edit but delete (which does nothing); a done
    /// task is in neither list's order, so it cannot move into or within Next Up.
    static func refusal(_ action: Action, on task: TaskItem) -> String? {
        if task.deleted {
            switch action {
            case .editTitle, .cycleUrgency, .cycleImportance, .setDuration, .cycleCategory, .typeCategory,
                 .toggleNextUp, .reorderDown, .reorderUp, .toggleDone:
                return "% is deleted; nothing changed (nextup restore brings it back)"
            default: return nil
            }
        }
        if task.isDone {
            switch action {
            case .toggleNextUp, .reorderDown, .reorderUp:
                return "% is done; only open tasks go into Next Up (x reopens it)"
            default: return nil
            }
        }
        return nil
    }
}
