import NextUpCore

/// The aligned table of human output: a pure function from tasks and width to
/// lines. Unset triage attributes show as `?`; task text is sanitised and cut
/// by display width, never by bytes.
enum TaskTable {
    static let categoryWidth = 12

    /// One line per task, plus a header line. `width` nil: no cutting.
    static func render(_ tasks: [TaskItem], width: Int?) -> [String] {
        let header = row(mark: " ", id: "ID", urgent: "URGENT", imp: "IMP", dur: "DUR", cat: "CATEGORY", due: "DUE", title: "TITLE", width: width)
        return [header] + tasks.map { t in
            row(mark: mark(t), id: t.id.short,
                urgent: t.urgency.map { $0 == .urgent ? "yes" : "no" } ?? "?",
                imp: t.importance.map { String($0.rawValue) } ?? "?",
                dur: t.duration?.description ?? "?",
                cat: t.category.map(Sanitizer.visible) ?? "?",
                due: t.due?.description ?? "-",
                title: Sanitizer.visible(t.title), width: width)
        }
    }

    /// `▸` Next Up, `✓` done, `✗` deleted, blank for the Backlog.
    static func mark(_ t: TaskItem) -> String {
        if t.deleted { return "✗" }
        if t.isDone { return "✓" }
        return t.isNextUp ? "▸" : " "
    }

    static func row(mark: String, id: String, urgent: String, imp: String, dur: String, cat: String, due: String, title: String, width: Int?) -> String {
        let fixed = TerminalWidth.fit(mark, to: 1) + " " + TerminalWidth.fit(id, to: 8) + "  "
            + TerminalWidth.fit(urgent, to: 6) + "  " + TerminalWidth.fit(imp, to: 3) + "  "
            + TerminalWidth.fit(dur, to: 6) + "  " + TerminalWidth.fit(cat, to: categoryWidth) + "  "
            + TerminalWidth.fit(due, to: 10) + "  "
        guard let width else { return fixed + title }
        let room = max(10, width - TerminalWidth.width(of: fixed))
        return fixed + TerminalWidth.truncate(title, to: room)
    }
}
