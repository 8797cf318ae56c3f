import NextUpCore

extension Reducer {
    /// The single-keystroke edits of the selected task and the prompts that
    /// edit one field of it.
    static func edit(_ action: Action, _ task: TaskItem, _ state: inout AppState) -> [Effect] {
        let id = task.id
        let name = TerminalWidth.truncate(Sanitizer.visible(task.title), to: 30)
        // A key's edit is made from the row on screen: it is written only if
        // the fields it changes still hold what the row showed.
        func change(_ write: Write, undo: Write, _ what: String) -> [Effect] {
            askSeriesScope([.write(write, seen: task.seen(write.fields),
                                   undo: UndoEntry(inverse: undo, original: write, description: "\(what) of “\(name)”"))],
                           task, from: nil, &state)
        }
        // A prompt depends on its field and on the task being open or done,
        // and not deleted, as it was when the prompt opened.
        func prompt(_ kind: Prompt.Kind, _ text: String, _ field: TaskField) -> Prompt {
            Prompt(kind: kind, text: text, seen: task.seen([field, .done, .deleted]))
        }
        if let refusal = refusal(action, on: task) {
            state.say(refusal.replacingOccurrences(of: "%", with: "“\(name)”"))
            return []
        }
        switch action {
        case .editTitle:
            state.prompt = prompt(.title(id), task.title, .title)
        case .setDuration:
            state.prompt = prompt(.duration(id), task.duration?.description ?? "", .duration)
        case .typeCategory:
            state.prompt = prompt(.category(id), task.category ?? "", .category)
            state.prompt?.choices = state.categories
            return [.loadNames]
        case .editTags:
            // The write depends on the registers of the tag it adds or
            // removes, as they were when the prompt opened (``submitTag``).
            let registers = task.versions.keys.filter { $0.tagName != nil }
            state.prompt = Prompt(kind: .tags(id), seen: task.seen([.done, .deleted] + registers))
            state.prompt?.seenTags = task.tags
            return [.loadNames]
        case .setDue:
            state.prompt = prompt(.due(id), task.due?.description ?? "", .due)
        case .editNotes:
            // The editor runs outside the reducer; its text comes back as
            // `notesEdited` and is written like a prompt's.
            return [.editNotes(id, text: task.notes, original: task.notes, seen: task.seen([.notes, .done, .deleted]))]
        case .cycleUrgency:
            let next: Urgency? = switch task.urgency { case nil: .urgent; case .urgent: .notUrgent; case .notUrgent: nil }
            return change(.setUrgency(id, next), undo: .setUrgency(id, task.urgency), "urgency")
        case .cycleImportance:
            let next: Importance? = switch task.importance { case nil: .low; case .low: .medium; case .medium: .high; case .high: nil }
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
            return change(.setCategory(id, next), undo: .setCategory(id, task.category), "category")
        case .toggleNextUp:
            if task.isNextUp {
                let ids = state.nextUp.ids
                let i = ids.firstIndex(of: id)
                let after = i.flatMap { $0 > 0 ? ids[$0 - 1] : nil }
                let before = i.flatMap { $0 + 1 < ids.count ? ids[$0 + 1] : nil }
                return change(.removeFromNextUp(id), undo: .placeInNextUp(id, .between(after: after, before: before)), "move to Backlog")
            }
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
                state.keepDone.remove(id)
                state.keepDoneUntil[id] = nil
                return change(.reopen(id), undo: .complete(id), "reopen")
            }
            state.keepDone.insert(id)
            state.keepDoneUntil[id] = state.nowMillis + AppState.keepDoneMillis
            // An occurrence of a series: done, and the next one made (not
            // undone by z: the next one may be edited on another machine).
            if task.recur != nil, task.occurrence != nil {
                let write = Write.completeOccurrence(id, on: state.today)
                return [.write(write, seen: task.seen([.done, .deleted, .due, .recur, .occurrence]), undo: nil)]
            }
            return change(.complete(id), undo: .reopen(id), "done")
        case .delete:
            return change(.delete(id), undo: .restore(id), "delete")
        case .setRecurrence, .setDefer, .skipOccurrence, .stopSeries:
            return series(action, task, &state)
        default:
            break
        }
        return []
    }

    // MARK: prompts

    static func handlePromptKey(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard var prompt = state.prompt else { return [] }
        if let conflict = prompt.conflict {
            if case .paste = key { return [] }
            return handleConflictKey(key, prompt, conflict, &state)
        }
        if prompt.isConfirmation { return confirm(key, prompt, &state) }
        if case .seriesScope = prompt.kind { return answerSeriesScope(key, prompt, &state) }
        switch key {
        case .escape, .ctrl("c"), .ctrl("g"):
            state.prompt = nil
            // Esc on the filter clears it (the lists followed the typing).
            if prompt.kind == .filter, !state.filter.isEmpty {
                state.filter = ListFilter()
                state.say("filter cleared")
                return [.reload]
            }
            return []
        case .enter:
            return submit(prompt, &state)
        case .tab where prompt.completes, .backTab where prompt.completes:
            complete(&prompt, backwards: key == .backTab, &state)
            state.prompt = prompt
            return []
        default:
            prompt.completion = nil
            prompt.hint = nil
            if prompt.editor.handle(key) { prompt.error = nil }
            state.prompt = prompt
            // The lists follow the filter as it is typed.
            if prompt.kind == .filter {
                do {
                    let filter = try ListFilter.parse(prompt.editor.text)
                    if filter != state.filter {
                        state.filter = filter
                        return [.reload]
                    }
                } catch {
                    state.prompt?.error = "\(error)"
                }
            }
            return []
        }
    }

    /// A prompt whose field moved on since it opened: o writes the prompt's
    /// text over the other value, k keeps the other value (and closes), e goes
    /// back to editing (the other value now seen). Nothing else is read, so a
    /// key meant for the list cannot write by accident.
    static func handleConflictKey(_ key: Key, _ prompt: Prompt, _ conflict: Prompt.Conflict, _ state: inout AppState) -> [Effect] {
        var seenNow = prompt
        seenNow.conflict = nil
        seenNow.seen[conflict.field] = conflict.version
        switch key {
        case .char("o"), .char("O"):
            return submit(seenNow, &state)
        case .char("k"), .char("K"), .escape, .ctrl("c"), .ctrl("g"):
            state.prompt = nil
            state.say("kept the other change; nothing written")
            return []
        case .char("e"), .char("E"):
            if case .notes(let id) = prompt.kind {
                state.prompt = nil
                return [.editNotes(id, text: seenNow.editor.text, original: seenNow.original, seen: seenNow.seen)]
            }
            state.prompt = seenNow
            return []
        default:
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
                effects = [.write(.add(title: title, toNextUp: toNextUp), seen: [:], undo: nil)]
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
                // A name in use (or configured) is written as it is spelled there.
                let typed = trimmed.isEmpty ? nil : try TaskText.category(trimmed)
                let value = typed.map { name in prompt.choices.first { TextMatch.same($0, name) } ?? name }
                let old = prompt.original.isEmpty ? nil : prompt.original
                if value != old {
                    effects = [undoable(.setCategory(id, value), .setCategory(id, old), "category", prompt)]
                }
            case .due(let id):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                let value = trimmed.isEmpty ? nil : try DueDate.parse(trimmed, today: state.today)
                let old = prompt.original.isEmpty ? nil : try? DueDate.parse(prompt.original)
                if value != old {
                    effects = [undoable(.setDue(id, value), .setDue(id, old), "due date", prompt)]
                }
            case .tags(let id):
                guard let effect = try submitTag(id, prompt, &state) else { return [] }
                effects = [effect]
            case .notes(let id):
                let value = try TaskText.notes(text)
                if value != prompt.original {
                    effects = [undoable(.setNotes(id, value), .setNotes(id, prompt.original), "notes", prompt)]
                }
            case .filter:
                state.filter = try ListFilter.parse(text)
                effects = [.reload]
            case .recurrence, .deferDate, .confirmSkip, .confirmStop:
                effects = try submitSeries(prompt, &state)
            case .seriesScope:
                return []
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
        state.submitted = effects.isEmpty || prompt.task == nil ? nil : prompt
        return askSeriesScope(effects, prompt.task.flatMap { state.rows[$0] }, from: prompt, &state)
    }

    /// An edit of a field an occurrence may hold apart from its series, on an
    /// open occurrence of a repeating task, is not written yet: the status
    /// line asks whether it is for this occurrence only or for the series
    /// (``answerSeriesScope(_:_:_:)``). Any other edit passes unchanged.
    static func askSeriesScope(_ effects: [Effect], _ task: TaskItem?, from prompt: Prompt?, _ state: inout AppState) -> [Effect] {
        guard effects.count == 1, case .write(let write, _, _) = effects[0], write.asksSeriesScope,
              let task, task.isRecurring, task.occurrence != nil, task.isOpen else { return effects }
        var question = Prompt(kind: .seriesScope(task.id))
        question.pending = effects[0]
        question.asked = prompt
        state.prompt = question
        state.submitted = nil
        return []
    }

    /// `t`: the waiting edit is written for this occurrence only (its undo
    /// too); `s`: for the series; Esc: nothing is written. Other keys are
    /// not read, so a key meant for the list cannot answer by accident.
    static func answerSeriesScope(_ key: Key, _ prompt: Prompt, _ state: inout AppState) -> [Effect] {
        guard case .write(let write, let seen, let undo) = prompt.pending else {
            state.prompt = nil
            return []
        }
        switch key {
        case .char("t"), .char("T"):
            state.prompt = nil
            state.submitted = prompt.asked
            let entry = undo.map { UndoEntry(inverse: .thisOnly($0.inverse), original: .thisOnly(write), description: $0.description) }
            return [.write(.thisOnly(write), seen: seen, undo: entry)]
        case .char("s"), .char("S"):
            state.prompt = nil
            state.submitted = prompt.asked
            return [.write(write, seen: seen, undo: undo)]
        case .escape, .ctrl("c"), .ctrl("g"):
            state.prompt = nil
            state.say("nothing changed")
            return []
        default:
            return []
        }
    }

    /// The editor closed: the notes are written like a prompt's text, only
    /// if the notes (and done, deleted) still hold what the editor opened
    /// with; a stale write reopens as a conflict prompt.
    static func notesEdited(_ id: TaskID, text: String, original: String, seen: [TaskField: Version?],
                            _ state: inout AppState) -> [Effect] {
        // Editors end a file with a line break: trailing white space goes.
        var prompt = Prompt(kind: .notes(id), text: (try? TaskText.notes(text)) ?? text, seen: seen)
        prompt.original = original
        let effects = submit(prompt, &state)
        if let error = state.prompt?.error, case .notes = state.prompt?.kind {
            state.prompt = nil
            state.say("notes not saved: \(error)", error: true)
        } else if effects.isEmpty {
            state.say("notes unchanged")
        }
        return effects
    }

    static func undoable(_ write: Write, _ inverse: Write, _ what: String, _ prompt: Prompt) -> Effect {
        .write(write, seen: prompt.seen, undo: UndoEntry(inverse: inverse, original: write, description: "\(what) change"))
    }

    /// Why `action` makes no sense on `task` (`%` stands for its name), or nil.
    /// A deleted task takes no edit but delete (which does nothing); a done
    /// task is in neither list's order, so it cannot move into or within Next Up.
    static func refusal(_ action: Action, on task: TaskItem) -> String? {
        if task.deleted {
            switch action {
            case .editTitle, .cycleUrgency, .cycleImportance, .setDuration, .cycleCategory, .typeCategory,
                 .setDue, .editTags, .editNotes, .toggleNextUp, .reorderDown, .reorderUp, .toggleDone,
                 .setRecurrence, .setDefer, .skipOccurrence, .stopSeries:
                return "% is deleted; nothing changed (nextup restore brings it back)"
            default: return nil
            }
        }
        if task.isDone {
            switch action {
            case .toggleNextUp, .reorderDown, .reorderUp:
                return "% is done; only open tasks go into Next Up (x reopens it)"
            case .skipOccurrence, .stopSeries:
                return "% is done; its series goes on from its next occurrence"
            default: return nil
            }
        }
        return nil
    }
}
