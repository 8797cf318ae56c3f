import NextUpCore
import NextUpSync

/// The title bar, the message/prompt line and the status bar.
enum StatusView {
    static func titleBar(_ state: AppState, width: Int) -> ScreenLine {
        var b = LineBuilder(width: width)
        b.add(" nextup", .title)
        if !state.filter.isEmpty {
            let shown = state.nextUp.count + state.backlog.count
            b.add("  filter: \(state.filter.query) · \(shown) \(shown == 1 ? "match" : "matches") · Esc clears", .title)
        }
        let right = "Next Up \(state.openCount(.nextUp)) · Backlog \(state.openCount(.backlog))"
            + (state.readingLists ? " · reading… " : " ")
        let rw = TerminalWidth.width(of: right)
        if b.remaining > rw + 2 {
            b.pad(leaving: rw, .title)
            b.add(right, .title)
        }
        return b.line(padding: .title)
    }

    /// Words for the sync state: "synced 4s ago · 2 peers", "syncing…",
    /// "local only", or the problem. Second value: whether it is a problem.
    static func syncText(_ sync: SyncDisplay, nowMillis: Int64, awaiting: Bool = false) -> (String, Bool) {
        guard sync.enabled else { return ("local only — no peer folder", false) }
        if let problem = sync.problem { return ("sync: \(problem)", true) }
        var parts: [String] = []
        if sync.isSyncing || awaiting { parts.append("syncing…") }
        else if let last = sync.lastSuccessMillis { parts.append("synced \(age(nowMillis - last))") }
        else { parts.append("not synced yet") }
        parts.append(sync.vdirOnly ? "vdir" : sync.peers == 1 ? "1 peer" : "\(sync.peers) peers")
        if sync.pendingLocalChanges > 0 { parts.append("\(sync.pendingLocalChanges) to send") }
        if let skew = sync.skewWarning { parts.append(skew) }
        // A damaged line or a skipped file is never silent: said first, so
        // that a narrow bar still shows it (`nextup doctor` says it in full).
        let skipped = sync.notices.filter { $0.hasPrefix("skipped: ") }.map(shortenLogNames)
        return ((skipped + parts).joined(separator: " · "), sync.skewWarning != nil || !skipped.isEmpty)
    }

    /// `nextup-1f0f0f0f-0000-4000-8000-000000000000.log` as `nextup-1f0f0f0f….log`.
    static func shortenLogNames(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "nextup-") {
            out += rest[..<start.upperBound]
            rest = rest[start.upperBound...]
            let id = rest.prefix(36)
            if id.count == 36, rest.dropFirst(36).hasPrefix(".log"), id.filter({ $0 == "-" }).count == 4 {
                out += id.prefix(8) + "…"
                rest = rest.dropFirst(36)
            }
        }
        return out + rest
    }

    /// "just now", "4s ago", "3m ago", "2h ago", "5d ago".
    static func age(_ millis: Int64) -> String {
        let s = millis / 1000
        if s < 1 { return "just now" }
        if s < 60 { return "\(s)s ago" }
        if s < 3600 { return "\(s / 60)m ago" }
        if s < 86_400 { return "\(s / 3600)h ago" }
        return "\(s / 86_400)d ago"
    }

    static func statusBar(_ state: AppState, width: Int) -> ScreenLine {
        var b = LineBuilder(width: width)
        if let error = state.prompt?.error {
            b.add(" \(error)", .error)
            return b.line(padding: .error)
        }
        if let hint = state.prompt?.hint {
            b.add(" " + hint, .status)
            return b.line(padding: .status)
        }
        if let prompt = state.prompt, prompt.conflict != nil {
            // The keys must stay visible: the text typed is cut to what fits.
            let head = " o overwrite with yours: “", tail = "” · k keep theirs · e edit"
            let room = max(1, width - TerminalWidth.width(of: head) - TerminalWidth.width(of: tail))
            b.add(head + TerminalWidth.truncate(Sanitizer.visible(prompt.editor.text), to: room) + tail, .status)
            return b.line(padding: .status)
        }
        var (text, problem) = syncText(state.sync, nowMillis: state.nowMillis, awaiting: state.syncAwaited != nil)
        // Which machines have my last change (`nextup status` in one line).
        if state.sync.enabled, let delivery = state.delivery?.summary(now: state.nowMillis) { text += " · last change: " + delivery }
        let style: Style = problem ? .statusProblem : .status
        b.add(" " + text, style)
        let right = " " + [(Action.help, "help"), (.quit, "quit")].compactMap { action, word in
            state.keyMap.keys(for: action).min { $0.name == $0.name.lowercased() && $1.name != $1.name.lowercased() }.map { "\($0.name) \(word)" }
        }.joined(separator: " · ") + " "
        let rw = TerminalWidth.width(of: right)
        if b.remaining >= rw {
            b.pad(leaving: rw, .status)
            b.add(right, .status)
        }
        return b.line(padding: .status)
    }

    /// The prompt (with the cursor's column) or the message, or key hints.
    static func messageLine(_ state: AppState, width: Int) -> (ScreenLine, cursorCol: Int?) {
        var b = LineBuilder(width: width)
        if let prompt = state.prompt, let conflict = prompt.conflict {
            b.add(" \(conflict.text)", .error)
            return (b.line(padding: .error), nil)
        }
        if let prompt = state.prompt {
            b.add(promptLabel(prompt.label, width: width, text: prompt.editor.text), .header)
            let room = b.remaining
            let (text, cursor) = visibleText(prompt.editor, room: room)
            let col = b.used + cursor
            b.add(text, .normal)
            return (b.line(), min(col, width - 1))
        }
        if let m = state.message {
            b.add(" " + m.text, m.isError ? .error : .message)
            return (b.line(), nil)
        }
        // As many hints as fit whole, the help key's always last.
        let hints: [(Action, String)] = [(.add, "add"), (.editTitle, "title"), (.cycleUrgency, "urgency"),
                                         (.cycleImportance, "importance"), (.setDuration, "duration"),
                                         (.toggleNextUp, "next up"), (.toggleDone, "done"), (.details, "details"),
                                         (.filter, "filter"), (.undo, "undo"), (.cycleCategory, "category"),
                                         (.setDue, "due"), (.history, "history"), (.sort, "sort")]
        let words = hints.compactMap { action, word in state.keyMap.keys(for: action).first.map { "\($0.name) \(word)" } }
        let help = state.keyMap.keys(for: .help).first.map { "\($0.name) help" }
        var text = ""
        for word in words {
            let next = text.isEmpty ? word : text + " · " + word
            let withHelp = help.map { next + " · " + $0 } ?? next
            if TerminalWidth.width(of: " " + withHelp) > width { break }
            text = next
        }
        if let help { text = text.isEmpty ? help : text + " · " + help }
        b.add(" " + text, .unset)
        return (b.line(), nil)
    }

    /// A prompt's label as it fits before its text: whole when the text
    /// (and the cursor after it, and at least ``promptRoom`` cells) fits
    /// beside it, else only its first words — `Due (2026-12-24, …): ` as
    /// `Due: ` —, else cut; never more than half the line, and always ending
    /// in a space, so that it never runs into the text.
    static func promptLabel(_ label: String, width: Int, text: String) -> String {
        let room = max(promptRoom, TerminalWidth.width(of: Sanitizer.visible(text)) + 1)
        if TerminalWidth.width(of: label) + room <= width { return label }
        var short = label
        if let open = label.range(of: " (") { short = label[..<open.lowerBound] + ": " }
        let limit = max(2, width / 2)
        if TerminalWidth.width(of: short) <= limit { return short }
        while short.last == " " { short.removeLast() }
        return TerminalWidth.truncate(short, to: limit - 1) + " "
    }

    /// The fewest cells a prompt's text is given beside the whole label.
    static let promptRoom = 20

    /// The part of an editor's text that fits in `room` cells, scrolled so the
    /// cursor is visible, and the cursor's cell offset in it.
    static func visibleText(_ editor: LineEditor, room: Int) -> (String, Int) {
        let chars = editor.characters.map { Sanitizer.visible(String($0)) }
        let widths = chars.map { TerminalWidth.width(of: $0) }
        let limit = max(1, room - 1)
        var start = 0
        var before = widths[0..<editor.cursor].reduce(0, +)
        while before > limit, start < editor.cursor {
            before -= widths[start]
            start += 1
        }
        var out = ""
        var used = 0
        for i in start..<chars.count {
            if used + widths[i] > room { break }
            out += chars[i]
            used += widths[i]
        }
        return (out, before)
    }
}
