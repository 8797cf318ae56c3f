import NextUpCore

/// "While you were away": a few lines over the bottom of the lists (which
/// stay loaded and visible above it) — which machine changed which task and
/// how, then "and N more" — until any key is pressed.
enum AwayView {
    /// The most changes listed; the rest are counted.
    static let mostLines = 6

    /// The overlay's lines for a body of `height` rows (none when there is
    /// nothing to say).
    static func lines(_ state: AppState, width: Int, height: Int) -> [ScreenLine] {
        guard let away = state.away, height >= 3 else { return [] }
        let count = away.lines.count
        var head = LineBuilder(width: width)
        let since = away.since > 0 ? " since \(DetailView.localTime(away.since, state.utcOffsetSeconds))" : ""
        let more = away.cut ? "more than " : ""
        head.add(" While you were away\(since): \(more)\(count) change\(count == 1 ? "" : "s") on \(more)\(away.tasks) task\(away.tasks == 1 ? "" : "s")"
                 + " from other machines · any key goes on", .headerFocused)
        var out = [head.line(padding: .headerFocused)]
        let room = min(mostLines, height - 1)
        let shown = count > room ? max(1, room - 1) : count
        let machineWidth = min(16, away.lines.prefix(shown).map { TerminalWidth.width(of: $0.machine) }.max() ?? 0)
        let titleWidth = min(32, max(8, width / 3))
        for line in away.lines.prefix(shown) {
            var b = LineBuilder(width: width)
            b.add("   ", .help)
            b.add(line.machine, .help, exactly: machineWidth)
            b.add("  ", .help)
            b.add(line.title, .help, exactly: min(titleWidth, TerminalWidth.width(of: Sanitizer.visible(line.title))))
            b.add("  " + line.change, .help)
            out.append(b.line(padding: .help))
        }
        if shown < count || away.cut {
            var b = LineBuilder(width: width)
            let again = away.since > 0 ? " — nextup changes --since \(DetailView.localTime(away.since, state.utcOffsetSeconds).prefix(10)) lists them again" : ""
            b.add("   and \(away.cut ? "over " : "")\(count - shown) more\(again)", .help)
            out.append(b.line(padding: .help))
        }
        return out
    }
}
