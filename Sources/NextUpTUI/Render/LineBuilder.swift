import NextUpCore

/// Builds one screen line of an exact width from pieces of text. Every piece
/// goes through ``Sanitizer/visible(_:)`` and is measured with
/// ``TerminalWidth``, so nothing that reaches the screen is a control
/// character and the line never spills over.
struct LineBuilder {
    let width: Int
    private(set) var spans: [Span] = []
    private(set) var used = 0

    init(width: Int) { self.width = max(0, width) }

    var remaining: Int { width - used }

    /// Appends text cut (with `…`) to at most `cells` cells (default: the rest).
    mutating func add(_ text: String, _ style: Style = .normal, cells: Int? = nil) {
        let limit = min(cells ?? remaining, remaining)
        guard limit > 0 else { return }
        let t = TerminalWidth.truncate(Sanitizer.visible(text), to: limit)
        guard !t.isEmpty else { return }
        spans.append(Span(t, style))
        used += TerminalWidth.width(of: t)
    }

    /// Appends text fitted to exactly `cells` cells (cut or padded), aligned
    /// left or right.
    mutating func add(_ text: String, _ style: Style = .normal, exactly cells: Int, right: Bool = false) {
        let n = min(cells, remaining)
        guard n > 0 else { return }
        let clean = Sanitizer.visible(text)
        let t: String
        if right {
            let cut = TerminalWidth.truncate(clean, to: n)
            t = String(repeating: " ", count: n - TerminalWidth.width(of: cut)) + cut
        } else {
            t = TerminalWidth.fit(clean, to: n)
        }
        spans.append(Span(t, style))
        used += n
    }

    /// Pads with spaces in `style` up to the full width.
    mutating func pad(_ style: Style = .normal, with fill: Character = " ") {
        guard remaining > 0 else { return }
        spans.append(Span(String(repeating: fill, count: remaining), style))
        used = width
    }

    /// Pads up to the width, leaving `cells` cells free at the end.
    mutating func pad(leaving cells: Int, _ style: Style = .normal) {
        let n = remaining - cells
        guard n > 0 else { return }
        spans.append(Span(String(repeating: " ", count: n), style))
        used += n
    }

    mutating func line(padding style: Style = .normal) -> ScreenLine {
        pad(style)
        return ScreenLine(spans)
    }
}
