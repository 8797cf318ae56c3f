import NextUpCore

/// The history (H): done and deleted tasks, the most recently changed first,
/// each with what happened to it and when (local time).
enum HistoryView {
    static func lines(_ state: AppState, width: Int, height: Int) -> [ScreenLine] {
        guard let history = state.history else { return [] }
        var out: [ScreenLine] = []
        let rows = max(0, height - 1)
        var header = LineBuilder(width: width)
        // A list longer than the screen says which rows it shows.
        let shown = history.count > rows ? " (\(history.top + 1)–\(min(history.count, history.top + rows)))" : ""
        func key(_ action: Action) -> String { state.keyMap.keys(for: action).first?.name ?? "(unbound)" }
        header.add("▸ History · \(history.count)\(shown) · done and deleted, newest first · \(key(.toggleDone)) reopens · \(key(.delete)) restores",
                   .headerFocused)
        out.append(header.line(padding: .headerFocused))
        if history.ids.isEmpty {
            var b = LineBuilder(width: width)
            b.add("  nothing done or deleted yet", .unset)
            out.append(b.line())
        }
        let end = min(history.count, history.top + rows)
        if history.top < end {
            for i in history.top..<end {
                let id = history.ids[i]
                let selected = id == history.selected
                let base: Style = selected ? .selected : .normal
                var b = LineBuilder(width: width)
                b.add(selected ? "▸ " : "  ", base, exactly: RowColumns.marker)
                guard let task = state.rows[id] else {
                    b.add("…", .unset)
                    out.append(b.line(padding: base))
                    continue
                }
                let what: String
                if task.deleted {
                    let when = task.versions[.deleted].map { DetailView.localTime($0.timestamp.millis, state.utcOffsetSeconds) } ?? ""
                    what = "deleted \(when)"
                } else {
                    what = "done    " + (task.completedAt.map { DetailView.localTime($0, state.utcOffsetSeconds) } ?? "")
                }
                b.add(what, selected ? base : .unset, exactly: 25)
                b.add(" " + task.title, base)
                out.append(b.line(padding: base))
            }
        }
        while out.count < height { out.append(ScreenLine([Span(String(repeating: " ", count: max(0, width)))])) }
        return Array(out.prefix(height))
    }
}
