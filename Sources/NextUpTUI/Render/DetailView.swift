import NextUpCore

/// The detail view (Enter): every field of the selected task, its short id
/// (what the command line takes), its times in local time, and where its
/// last change came from.
enum DetailView {
    static func lines(_ state: AppState, width: Int, height: Int) -> [ScreenLine] {
        var out: [ScreenLine] = []
        func blank() -> ScreenLine { ScreenLine([Span(String(repeating: " ", count: max(0, width)))]) }
        guard let task = state.selectedTask else {
            var b = LineBuilder(width: width)
            b.add("  no task selected — Esc closes", .unset)
            return [b.line()] + Array(repeating: blank(), count: max(0, height - 1))
        }
        var title = LineBuilder(width: width)
        let keys = state.keyMap
        func key(_ action: Action) -> String { keys.keys(for: action).first?.name ?? "(unbound)" }
        title.add(" Task \(task.id.short) · Esc closes · \(key(.editTitle)) title · \(key(.setDue)) due · \(key(.editNotes)) notes in $EDITOR",
                  .headerFocused)
        out.append(title.line(padding: .headerFocused))
        let labelWidth = 12
        func field(_ label: String, _ value: String?, _ style: Style = .normal) {
            var b = LineBuilder(width: width)
            b.add(" " + label, .help, exactly: labelWidth)
            b.add(value ?? "?", value == nil ? .unset : style)
            out.append(b.line())
        }
        let today = state.today
        field("title", task.title)
        field("id", task.id.rawValue)
        let list: String
        if task.deleted { list = "deleted" }
        else if task.isDone { list = "done" }
        else { list = task.isNextUp ? "Next Up" : "Backlog" }
        field("list", list)
        field("urgency", task.urgency.map { $0 == .urgent ? "urgent" : "not urgent" })
        field("importance", task.importance.map { "\($0.rawValue) (\(["low", "medium", "high"][$0.rawValue - 1]))" })
        field("duration", task.duration?.description)
        field("category", task.category)
        if let due = task.due {
            let when = DueState(due, today: today)
            field("due", due.description + (when == .none ? "" : " · \(when.word)"), when.style)
        } else {
            field("due", "—", .unset)
        }
        field("tags", task.tags.isEmpty ? "—" : task.tagNames.map { "+" + $0 }.joined(separator: " "))
        field("deferred", task.deferDate.map { $0 > today ? "until \($0.description) · in neither list before then" : $0.description } ?? "—",
              task.deferDate == nil ? .unset : .normal)
        if let rule = task.recur {
            field("repeats", "\(rule.words) · \(rule.rrule)")
            if let occurrence = task.occurrence {
                // The next due date if this one is done today (a rule counted
                // from completion counts from that day).
                let next = RecurrenceSchedule(rule.isAnchored ? rule : rule.anchored(at: task.due ?? today))
                    .successor(of: occurrence.number, due: task.due, doneOn: today)
                field("occurrence", "\(occurrence.number) · next due \(next?.description ?? "none: the series ends here")")
            }
        } else if let occurrence = task.occurrence {
            field("repeats", "no longer (stopped at occurrence \(occurrence.number))", .unset)
        }
        field("created", localTime(task.created, state.utcOffsetSeconds))
        if let newest = task.versions.values.max() {
            let whereFrom = newest.replica == state.replica
                ? "on this machine"
                : "on another machine (replica \(String(newest.replica.rawValue.prefix(8))))"
            field("modified", "\(localTime(newest.timestamp.millis, state.utcOffsetSeconds)) · \(whereFrom)")
        }
        field("completed", task.completedAt.map { localTime($0, state.utcOffsetSeconds) } ?? "—")
        if let source = task.source {
            field("source", source + (task.externalID.map { " (\($0))" } ?? ""))
        }
        let notes = task.notes.isEmpty ? [] : task.notes.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        field("notes", notes.isEmpty ? "— (\(key(.editNotes)) writes some)" : "")
        let changes = state.changesOf == task.id ? state.changes : []
        let changesRoom = changes.isEmpty ? 0 : min(changes.count + 1, max(3, (height - out.count) / 2))
        let room = max(0, height - out.count - changesRoom)
        for (i, line) in notes.enumerated() where i < room {
            var b = LineBuilder(width: width)
            if i == room - 1 && notes.count > room {
                b.add("   … \(notes.count - i) more lines (\(key(.editNotes)) shows them all)", .unset)
            } else {
                b.add("   " + line)
            }
            out.append(b.line())
        }
        if changesRoom > 0 {
            out += changeLines(changes, selected: state.changeSelected, keys: keys, width: width, height: changesRoom)
        }
        while out.count < height { out.append(blank()) }
        return Array(out.prefix(height))
    }

    /// The changes pane: a header, then the history newest first, scrolled
    /// so that the selected entry shows; a value that lost a race says so.
    static func changeLines(_ changes: [ChangeLine], selected: Int, keys: KeyMap, width: Int, height: Int) -> [ScreenLine] {
        func key(_ action: Action) -> String { keys.keys(for: action).first?.name ?? "(unbound)" }
        var header = LineBuilder(width: width)
        header.add(" Changes, newest first · \(key(.newerChange)) \(key(.olderChange)) select · \(key(.restoreChange)) restores the selected value",
                   .header)
        var out = [header.line(padding: .header)]
        let rows = max(0, height - 1)
        let top = min(max(0, selected - rows + 1), max(0, changes.count - rows))
        for (index, line) in changes.enumerated().dropFirst(top).prefix(rows) {
            var b = LineBuilder(width: width)
            let style: Style = index == selected ? .selected : (line.race != nil ? .changed : .normal)
            b.add((index == selected ? " > " : "   ") + line.text + (line.race.map { "  — \($0)" } ?? "")
                  + (line.isCurrent ? "  (now)" : ""), style)
            out.append(b.line(padding: style))
        }
        return out
    }

    /// `2026-11-23 10:04` in the local time zone.
    static func localTime(_ millis: Int64, _ offsetSeconds: Int) -> String {
        let text = Timestamps.rfc3339(millis + Int64(offsetSeconds) * 1000)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5))
    }
}

/// How a due date stands against today: what makes it stand out.
enum DueState: Equatable {
    case none, today, overdue

    init(_ due: DueDate?, today: DueDate) {
        guard let due else { self = .none; return }
        self = due < today ? .overdue : (due == today ? .today : .none)
    }

    var word: String {
        switch self {
        case .none: return ""
        case .today: return "due today"
        case .overdue: return "overdue"
        }
    }

    var style: Style {
        switch self {
        case .none: return .normal
        case .today: return .dueToday
        case .overdue: return .overdue
        }
    }
}
