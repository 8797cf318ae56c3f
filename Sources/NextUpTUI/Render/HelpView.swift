import NextUpCore

/// The help overlay: every action with the keys bound to it now (from the
/// current key map) and its name for the config file's `[keys]`, in two
/// columns when the width allows. At 80×24 it fits without a cut.
enum HelpView {
    static func lines(_ state: AppState, width: Int, height: Int) -> [ScreenLine] {
        let entries = Action.allCases.map { action -> (String, String, String) in
            let keys = state.keyMap.keys(for: action).map(\.name).joined(separator: " ")
            return (keys.isEmpty ? "(unbound)" : keys, action.rawValue, action.summary)
        }
        var out: [ScreenLine] = []
        var title = LineBuilder(width: width)
        title.add(" Keys and their names for [keys] in the config file — any key closes this help", .headerFocused)
        out.append(title.line(padding: .headerFocused))
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
        for text in [" Lists reload by themselves when this or another machine changes a task.",
                     " A key, z or Z on a field changed elsewhere since writes nothing and says so;",
                     " a prompt asks first: o overwrite · k keep theirs · e edit.",
                     " A paste is text in a prompt, nothing outside one. Ctrl-C closes a prompt."] {
            var foot = LineBuilder(width: width)
            foot.add(text, .unset)
            out.append(foot.line())
        }
        if out.count > height {
            out = Array(out.prefix(height))
            var more = LineBuilder(width: width)
            more.add(" … (make the window taller to see every key)", .unset)
            out[height - 1] = more.line()
        }
        while out.count < height { out.append(ScreenLine([Span(String(repeating: " ", count: width))])) }
        return out
    }
}
