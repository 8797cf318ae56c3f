import NextUpCore

/// A pane as lines: its header (name, count, column titles) and its visible
/// rows. Only the visible rows are looked at, whatever the list's length.
enum ListView {
    static func header(_ pane: Pane, _ state: AppState, width: Int) -> ScreenLine {
        let cols = RowColumns(width: width)
        let focused = state.focus == pane
        let style: Style = focused ? .headerFocused : .header
        var b = LineBuilder(width: width)
        var name = (focused ? "▸ " : "  ") + "\(pane.title) · \(state.openCount(pane))"
        if pane == .backlog { name += " · by \(state.sort.rawValue)" }
        if pane == .nextUp, let total = state.nextUpTotal { name += " · \(total)" }
        // A pane holding more rows than it shows says which ones it shows.
        let p = state[pane], shown = state.layout.rows(for: pane)
        if p.count > shown { name += " · \(p.top + 1)-\(min(p.count, p.top + shown))/\(p.count)" }
        b.add(name, style, exactly: RowColumns.marker + cols.title)
        b.add(" urg", style, exactly: 1 + RowColumns.urgency)
        b.add(" imp", style, exactly: 1 + RowColumns.importance)
        if cols.duration > 0 { b.add("   dur", style, exactly: 1 + cols.duration) }
        if cols.category > 0 { b.add(" category", style, exactly: 1 + cols.category) }
        if cols.due > 0 { b.add(" due", style, exactly: 1 + cols.due) }
        return b.line(padding: style)
    }

    static func rows(_ pane: Pane, _ state: AppState, width: Int, height: Int) -> [ScreenLine] {
        let p = state[pane]
        var lines: [ScreenLine] = []
        if p.ids.isEmpty {
            var b = LineBuilder(width: width)
            let hint: String
            if !state.filter.isEmpty { hint = "  nothing matches the filter — / changes it" }
            else if pane == .nextUp { hint = "  nothing in Next Up — select a Backlog task and press n" }
            else { hint = "  no open tasks — press a to add one" }
            b.add(hint, .unset)
            lines.append(b.line())
        } else {
            let end = min(p.count, p.top + height)
            for i in p.top..<end {
                let id = p.ids[i]
                lines.append(row(id, state.rows[id], selected: id == p.selected, focused: state.focus == pane,
                                 changed: state.highlights[id] != nil, width: width, today: state.today))
            }
        }
        while lines.count < height { lines.append(ScreenLine([Span(String(repeating: " ", count: max(0, width)))])) }
        return Array(lines.prefix(height))
    }

    /// One task as one line: marker, title (then its tags, `+name`),
    /// urgency, importance, duration, category, due — the ones that fit
    /// (``RowColumns``). Unset triage attributes show as `?`.
    /// A due date today reads `today`, an overdue one ends in `!` (so both
    /// stand out without colour too) and both get their own style.
    static func row(_ id: TaskID, _ task: TaskItem?, selected: Bool, focused: Bool, changed: Bool, width: Int,
                    today: DueDate? = nil) -> ScreenLine {
        let cols = RowColumns(width: width)
        let base: Style
        if selected { base = focused ? .selected : .selectedInactive }
        else if changed { base = .changed }
        else if task?.isDone == true { base = .done }
        else { base = .normal }
        var b = LineBuilder(width: width)
        // The marker column: the cursor, then `↻` for a repeating task.
        b.add((selected ? "▸" : " ") + (task?.isRecurring == true ? "↻" : " "), base, exactly: RowColumns.marker)
        guard let task else {
            b.add("…", .unset)
            return b.line(padding: base)
        }
        let unset: Style = base == .normal ? .unset : base
        func cell(_ value: String?, _ cells: Int, right: Bool = false) {
            b.add(" ", base, exactly: 1)
            b.add(value ?? "?", value == nil ? unset : base, exactly: cells, right: right)
        }
        let tags = task.tags.isEmpty ? "" : "  " + task.tagNames.map { "+" + $0 }.joined(separator: " ")
        b.add((task.isDone ? "✓ " : "") + task.title + tags, base, exactly: cols.title)
        cell(task.urgency.map { $0 == .urgent ? "yes" : "no" }, RowColumns.urgency)
        cell(task.importance.map { String($0.rawValue) }, RowColumns.importance, right: true)
        if cols.duration > 0 { cell(task.duration?.description, cols.duration, right: true) }
        if cols.category > 0 { cell(task.category, cols.category) }
        if cols.due > 0 {
            b.add(" ", base, exactly: 1)
            let when = today.map { DueState(task.due, today: $0) } ?? .none
            let text = RowColumns.dueText(task.due, today: today, cells: cols.due)
            b.add(text, when == .none || task.isDone || base != .normal ? base : when.style, exactly: cols.due)
        }
        return b.line(padding: base)
    }
}
