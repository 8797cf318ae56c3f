import NextUpCore

/// The help overlay: every action with the keys bound to it now (from the
/// current key map) and its name for the config file's `[keys]`, in two
/// columns when the width allows. At 80×24 it fits whole; on a shorter
/// screen it scrolls (``Reducer/helpKey(_:_:)``) from ``AppState/helpTop``,
/// its last line saying which lines show and how to move.
enum HelpView {
    /// The rows the help has between the title bar and the message line.
    static func height(_ state: AppState) -> Int { max(0, state.height - 3) }

    /// Lines a page moves, and the greatest first line (0: it fits whole).
    static func scrolling(_ state: AppState) -> (page: Int, lastTop: Int) {
        let body = bodyLines(state, width: state.width).count
        let rows = height(state)
        guard 1 + body > rows else { return (0, 0) }
        let page = max(1, rows - 2)
        return (page, max(0, body - page))
    }

    static func lines(_ state: AppState, width: Int, height: Int) -> [ScreenLine] {
        let body = bodyLines(state, width: width)
        var out: [ScreenLine] = []
        var title = LineBuilder(width: width)
        let scrolls = 1 + body.count > height
        title.add(" Keys and their names for [keys] in the config file — "
                  + (scrolls ? "j k space scroll, any other key closes" : "any key closes this help"), .headerFocused)
        out.append(title.line(padding: .headerFocused))
        if scrolls {
            let page = max(1, height - 2)
            let top = min(max(0, state.helpTop), max(0, body.count - page))
            let end = min(body.count, top + page)
            out += body[top..<end]
            var position = LineBuilder(width: width)
            let more = end < body.count ? "j space PgDn: more" : "the end · k b PgUp: back"
            position.add(" lines \(top + 1)-\(end) of \(body.count) · \(more) · other keys close", .help)
            out.append(position.line())
        } else {
            out += body
        }
        out = Array(out.prefix(height))
        while out.count < height { out.append(ScreenLine([Span(String(repeating: " ", count: width))])) }
        return out
    }

    /// Every line of the help below its title: the keys, then a few lines
    /// of notes, left out when only they would make the help scroll (each
    /// note is also said when it applies).
    static func bodyLines(_ state: AppState, width: Int) -> [ScreenLine] {
        let entries = Action.allCases.map { action -> (String, String, String) in
            let keys = state.keyMap.keys(for: action).map(\.name).joined(separator: " ")
            return (keys.isEmpty ? "(unbound)" : keys, action.rawValue, action.summary)
        }
        var out: [ScreenLine] = []
        let columns = width >= 76 ? 2 : 1
        let perColumn = (entries.count + columns - 1) / columns
        let columnWidth = width / columns
        // Keys and names are never cut; a summary shows only where it fits whole.
        let keyWidth = min(columnWidth / 2, 2 + entries.map { TerminalWidth.width(of: $0.0) }.max()!)
        let nameWidth = 2 + entries.map { TerminalWidth.width(of: $0.1) }.max()!
        for r in 0..<perColumn {
            var b = LineBuilder(width: width)
            for c in 0..<columns {
                let i = c * perColumn + r
                guard i < entries.count else { continue }
                b.add(" " + entries[i].0, .help, exactly: keyWidth)
                let rest = columnWidth - keyWidth
                b.add(" " + entries[i].1, .normal, exactly: min(rest, nameWidth))
                let room = rest - nameWidth
                let summary = room >= 12 && TerminalWidth.width(of: entries[i].2) <= room - 1 ? entries[i].2 : ""
                if room > 0 { b.add(summary, .unset, exactly: room) }
            }
            out.append(b.line())
        }
        let notes = 5
        if 1 + out.count + notes > height(state), 1 + out.count <= height(state) { return out }
        for text in [" Lists reload by themselves when this or another machine changes a task.",
                     " A key, z or Z on a field changed elsewhere since writes nothing and says so;",
                     " a prompt asks first: o overwrite · k keep theirs · e edit.",
                     " A paste is text in a prompt, nothing outside one. Ctrl-C closes a prompt.",
                     " An edit of a repeating task asks: t this one only · s the whole series · Esc."] {
            var foot = LineBuilder(width: width)
            foot.add(text, .unset)
            out.append(foot.line())
        }
        return out
    }
}
