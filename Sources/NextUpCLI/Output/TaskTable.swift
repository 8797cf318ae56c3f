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

    /// ``render(_:width:)``'s lines as one text, each ending in a newline.
    static func text(_ tasks: [TaskItem], width: Int?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(100 * (tasks.count + 1))
        appendHeaderLine(width: width, to: &out)
        for i in tasks.indices { appendLine(of: tasks[i], width: width, to: &out) }
        return out
    }

    /// The header line, ending in a newline, appended to `out`.
    static func appendHeaderLine(width: Int?, to out: inout [UInt8]) {
        appendHeader(width: width, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// The line of `t`, ending in a newline, appended to `out`: for a table
    /// written as its tasks are read.
    static func appendLine(of t: TaskItem, width: Int?, to out: inout [UInt8]) {
        appendLine(t, width: width, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    static func header(width: Int?) -> String {
        var out: [UInt8] = []
        appendHeader(width: width, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func line(_ t: TaskItem, width: Int?) -> String {
        var out: [UInt8] = []
        appendLine(t, width: width, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendHeader(width: Int?, to out: inout [UInt8]) {
        appendRow(mark: " ", id: "ID", urgent: "URGENT", imp: "IMP", dur: "DUR", cat: "CATEGORY", due: "DUE", title: "TITLE", width: width, to: &out)
    }

    /// One task's line: the one definition of what each column shows.
    private static func appendLine(_ t: TaskItem, width: Int?, to out: inout [UInt8]) {
        appendRow(mark: mark(t), id: t.id.short,
                  urgent: t.urgency.map { $0 == .urgent ? "yes" : "no" } ?? "?",
                  imp: t.importance.map { String($0.rawValue) } ?? "?",
                  dur: t.duration?.description ?? "?",
                  cat: t.category.map(Sanitizer.visible) ?? "?",
                  due: t.due?.description ?? "-",
                  title: Sanitizer.visible(t.title), width: width, to: &out)
    }

    /// `▸` Next Up, `✓` done, `✗` deleted, blank for the Backlog.
    static func mark(_ t: TaskItem) -> String {
        if t.deleted { return "✗" }
        if t.isDone { return "✓" }
        return t.isNextUp ? "▸" : " "
    }

    private static func appendRow(mark: String, id: String, urgent: String, imp: String, dur: String, cat: String, due: String, title: String,
                                  width: Int?, to out: inout [UInt8]) {
        appendFixedColumns(mark: mark, id: id, urgent: urgent, imp: imp, dur: dur, cat: cat, due: due, to: &out)
        guard let width else { out.append(contentsOf: title.utf8); return }
        let room = max(10, width - fixedCells)
        out.append(contentsOf: TerminalWidth.truncate(title, to: room).utf8)
    }

    /// Every column before the title, each fitted to its cells.
    private static func appendFixedColumns(mark: String, id: String, urgent: String, imp: String, dur: String, cat: String, due: String,
                                           to out: inout [UInt8]) {
        let gap: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: " ")]
        TerminalWidth.fit(mark, to: 1, appendingTo: &out); out.append(UInt8(ascii: " "))
        TerminalWidth.fit(id, to: 8, appendingTo: &out); out.append(contentsOf: gap)
        TerminalWidth.fit(urgent, to: 6, appendingTo: &out); out.append(contentsOf: gap)
        TerminalWidth.fit(imp, to: 3, appendingTo: &out); out.append(contentsOf: gap)
        TerminalWidth.fit(dur, to: 6, appendingTo: &out); out.append(contentsOf: gap)
        TerminalWidth.fit(cat, to: categoryWidth, appendingTo: &out); out.append(contentsOf: gap)
        TerminalWidth.fit(due, to: 10, appendingTo: &out); out.append(contentsOf: gap)
    }

    /// The cells the columns before the title take: the same in every row,
    /// as each is fitted to its own.
    static let fixedCells: Int = {
        var out: [UInt8] = []
        appendFixedColumns(mark: "", id: "", urgent: "", imp: "", dur: "", cat: "", due: "", to: &out)
        return TerminalWidth.width(of: String(decoding: out, as: UTF8.self))
    }()
}
