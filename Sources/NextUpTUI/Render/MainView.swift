import NextUpCore

/// The whole screen as a pure function of the state: exactly `height` lines of
/// exactly `width` cells, plus the cursor while a prompt is open.
public enum MainView {
    public static func frame(_ state: AppState) -> Frame {
        let layout = state.layout
        let width = state.width, height = state.height
        if layout.isTooSmall { return tooSmall(width: width, height: height) }
        var lines: [ScreenLine] = [StatusView.titleBar(state, width: width)]
        if state.showHelp {
            lines += HelpView.lines(state, width: width, height: height - 3)
        } else if state.showDetail {
            lines += DetailView.lines(state, width: width, height: height - 3)
        } else if state.history != nil {
            lines += HistoryView.lines(state, width: width, height: height - 3)
        } else {
            lines.append(ListView.header(.nextUp, state, width: width))
            lines += ListView.rows(.nextUp, state, width: width, height: layout.nextUpRows)
            lines.append(ListView.header(.backlog, state, width: width))
            lines += ListView.rows(.backlog, state, width: width, height: layout.backlogRows)
        }
        while lines.count < height - 2 { lines.append(ScreenLine([Span(String(repeating: " ", count: width))])) }
        lines = Array(lines.prefix(height - 2))
        // "While you were away" covers the bottom of the body, the lists above it.
        let away = AwayView.lines(state, width: width, height: height - 3)
        if !away.isEmpty { lines.replaceSubrange((lines.count - away.count)..., with: away) }
        let (message, cursorCol) = StatusView.messageLine(state, width: width)
        lines.append(message)
        lines.append(StatusView.statusBar(state, width: width))
        return Frame(lines: lines, cursor: cursorCol.map { (layout.messageLine, $0) })
    }

    /// A polite message when the terminal is below the minimum size.
    static func tooSmall(width: Int, height: Int) -> Frame {
        let sentences = ["Terminal too small (\(width)×\(height)).",
                         "nextup needs at least \(Layout.minWidth)×\(Layout.minHeight).",
                         "Make the window larger, or press q to quit."]
        // Wrapped at spaces so that no word is cut on a narrow screen.
        var words: [String] = []
        for sentence in sentences {
            var line = ""
            for word in sentence.split(separator: " ") {
                let next = line.isEmpty ? String(word) : line + " " + word
                if TerminalWidth.width(of: next) > width, !line.isEmpty {
                    words.append(line)
                    line = String(word)
                } else {
                    line = next
                }
            }
            if !line.isEmpty { words.append(line) }
        }
        var lines = Array(repeating: ScreenLine([Span(String(repeating: " ", count: max(0, width)))]), count: max(0, height))
        let start = max(0, (height - words.count) / 2)
        for (i, text) in words.enumerated() where start + i < height {
            var b = LineBuilder(width: width)
            b.add(text, .message)
            lines[start + i] = b.line()
        }
        return Frame(lines: lines)
    }
}
