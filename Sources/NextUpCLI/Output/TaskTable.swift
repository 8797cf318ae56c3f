import NextUpCore

/// The aligned table of human output: a pure function from tasks and width to
/// lines. Unset triage attributes show as `?`; task text is sanitised and cut
/// by display width, never by bytes.
enum TaskTable {
    static let categoryWidth = 12

    /// One line per task, plus a header line. `width` nil: no cutting.
    static func render(_ tasks: [TaskItem], width: Int?) -> [String] {
        [header(width: width)] + tasks.map { line($0, width: width) }
    }

    /// ``render(_:width:)`` written to `out`, a line at a time (no array of
    /// 100,000 lines, no `print` per line).
    static func write(_ tasks: [TaskItem], width: Int?, to out: inout FDOutput) throws {
        func put(_ text: String) throws {
            out.append(text.utf8)
            out.append(CollectionOfOne(UInt8(ascii: "\n")))
            try out.flushIfFull()
        }
        try put(header(width: width))
        for task in tasks { try put(line(task, width: width)) }
    }

    static func header(width: Int?) -> String {
        row(mark: " ", id: "ID", urgent: "URGENT", imp: "IMP", dur: "DUR", cat: "CATEGORY", due: "DUE", title: "TITLE", width: width)
    }

    static func line(_ t: TaskItem, width: Int?) -> String {
        row(mark: mark(t), id: t.id.short,
            urgent: t.urgency.map { $0 == .urgent ? "yes" : "no" } ?? "?",
            imp: t.importance.map { String($0.rawValue) } ?? "?",
            dur: t.duration?.description ?? "?",
            cat: t.category.map(Sanitizer.visible) ?? "?",
            due: t.due?.description ?? "-",
            title: Sanitizer.visible(t.title), width: width)
    }

    /// `▸` Next Up, `✓` done, `✗` deleted, blank for the Backlog.
    static func mark(_ t: TaskItem) -> String {
        if t.deleted { return "✗" }
        if t.isDone { return "✓" }
        return t.isNextUp ? "▸" : " "
    }

    static func row(mark: String, id: String, urgent: String, imp: String, dur: String, cat: String, due: String, title: String, width: Int?) -> String {
        let fixed = fixedColumns(mark: mark, id: id, urgent: urgent, imp: imp, dur: dur, cat: cat, due: due)
        guard let width else { return fixed + title }
        let room = max(10, width - fixedCells)
        return fixed + TerminalWidth.truncate(title, to: room)
    }

    /// Every column before the title, each fitted to its cells.
    static func fixedColumns(mark: String, id: String, urgent: String, imp: String, dur: String, cat: String, due: String) -> String {
        var out = ""
        out.reserveCapacity(80)
        out += TerminalWidth.fit(mark, to: 1); out += " "
        out += TerminalWidth.fit(id, to: 8); out += "  "
        out += TerminalWidth.fit(urgent, to: 6); out += "  "
        out += TerminalWidth.fit(imp, to: 3); out += "  "
        out += TerminalWidth.fit(dur, to: 6); out += "  "
        out += TerminalWidth.fit(cat, to: categoryWidth); out += "  "
        out += TerminalWidth.fit(due, to: 10); out += "  "
        return out
    }

    /// The cells the columns before the title take: the same in every row,
    /// as each is fitted to its own.
    static let fixedCells = TerminalWidth.width(of: fixedColumns(mark: "", id: "", urgent: "", imp: "", dur: "", cat: "", due: ""))
}
