import NextUpCore

extension Prompt {
    /// Whether Tab completes names in this prompt (category, tags).
    var completes: Bool {
        switch kind {
        case .category, .tags: return true
        default: return false
        }
    }
}

extension Reducer {
    /// The names in use arrived: the open category prompt offers the
    /// configured categories, then the others in use; the tag prompt the
    /// tags in use.
    static func namesLoaded(categories: [String], tags: [String], _ state: inout AppState) {
        guard var prompt = state.prompt else { return }
        switch prompt.kind {
        case .category:
            var choices = state.categories
            for name in categories where !choices.contains(where: { TextMatch.same($0, name) }) { choices.append(name) }
            prompt.choices = choices
        case .tags:
            prompt.choices = tags
        default:
            return
        }
        state.prompt = prompt
    }

    /// Tab (Shift-Tab backwards) replaces the name typed with the next name
    /// that starts with what was typed before the first Tab (matched as the
    /// filter matches, ``TextMatch/fold(_:)``: `reu` finds `Réunions`); the
    /// status bar lists the candidates. In the tag prompt a leading `-`
    /// stays and completes to the task's own tags.
    static func complete(_ prompt: inout Prompt, backwards: Bool, _ state: inout AppState) {
        let text = prompt.completion?.typed ?? prompt.editor.text
        var sign = ""
        var name = Substring(text)
        if case .tags = prompt.kind, let first = name.first, first == "-" || first == "+" {
            sign = String(first)
            name = name.dropFirst()
        }
        var pool = prompt.choices
        if sign == "-", case .tags(let id) = prompt.kind { pool = state.rows[id]?.tagNames ?? [] }
        let typed = TextMatch.fold(String(name).trimmingCharacters(in: .whitespaces))
        let candidates = pool.filter { TextMatch.fold($0).hasPrefix(typed) }
        guard !candidates.isEmpty else {
            prompt.completion = nil
            prompt.hint = nil
            prompt.error = pool.isEmpty ? "no names to complete yet" : "no name starts with “\(Sanitizer.visible(String(name)))”"
            return
        }
        var index = 0
        if let completion = prompt.completion {
            index = (completion.index + (backwards ? candidates.count - 1 : 1)) % candidates.count
        } else if backwards {
            index = candidates.count - 1
        }
        prompt.completion = Prompt.Completion(typed: text, index: index)
        prompt.editor = LineEditor(sign + candidates[index])
        prompt.error = nil
        prompt.hint = "Tab: " + candidates.map(Sanitizer.visible).joined(separator: " · ")
    }

    /// The tag prompt's write, from the task's tags as the prompt saw them:
    /// `name` or `+name` adds the tag (in the spelling in use for that name,
    /// none if the task had it already); `-name` removes every spelling of
    /// it from the task. The write expects
    /// the registers it writes to hold what they held when the prompt opened
    /// (a tag nobody had written: never written), so a change of that tag
    /// meanwhile comes back stale and asks, while other tags merge.
    static func submitTag(_ id: TaskID, _ prompt: Prompt, _ state: inout AppState) throws -> Effect? {
        var text = Substring(prompt.editor.text.trimmingCharacters(in: .whitespaces))
        let removing = text.hasPrefix("-")
        if removing { text = text.dropFirst() }
        let name = try TaskText.tag(String(text))
        let registers: [String]
        if removing {
            registers = prompt.seenTags.filter { TextMatch.same($0, name) }
            guard !registers.isEmpty else { throw TaskInputError("“\(Sanitizer.visible(name))” is not a tag of this task") }
        } else {
            if let own = prompt.seenTags.first(where: { TextMatch.same($0, name) }) {
                state.prompt = nil
                state.say("already tagged +\(Sanitizer.visible(own))")
                return nil
            }
            registers = [prompt.choices.first { TextMatch.same($0, name) } ?? name]
        }
        var seen: [TaskField: Version?] = [:]
        for field in [TaskField.done, .deleted] + registers.map(TaskField.tag) {
            seen[field] = .some(prompt.seen[field] ?? nil)
        }
        let write = Write.setTags(id, Dictionary(uniqueKeysWithValues: registers.map { ($0, !removing) }))
        let inverse = Write.setTags(id, Dictionary(uniqueKeysWithValues: registers.map { ($0, removing) }))
        return .write(write, seen: seen, undo: UndoEntry(inverse: inverse, original: write, description: "tag change"))
    }
}
