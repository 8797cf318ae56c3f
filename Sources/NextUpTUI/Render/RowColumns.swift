import NextUpCore

/// The attribute columns a list row shows at a given width. The title keeps
/// at least ``minTitle`` cells; to make room, a narrower screen gives up what
/// ``giveUp`` lists, in its order (the least important first), until it
/// does. The due date's overdue `!` stays longest: it is what must not be
/// missed.
struct RowColumns: Equatable {
    static let marker = 2
    static let urgency = 3
    static let importance = 3
    static let fullDuration = 5
    static let wideCategory = 12
    static let narrowCategory = 10
    /// `2026-12-24!`
    static let fullDue = 11
    /// `12-24!` (this year), `2027` (another year), `today`.
    static let shortDue = 6
    static let minTitle = 22

    enum Step: Equatable {
        case narrowCategory, shortDue, noCategory, noDuration, noDue
    }

    /// What narrower screens give up, the least important first.
    static let giveUp: [Step] = [.narrowCategory, .shortDue, .noCategory, .noDuration, .noDue]

    /// Cells of each column; 0 when the column is not shown.
    private(set) var duration = fullDuration
    private(set) var category = wideCategory
    private(set) var due = fullDue
    private(set) var title = 0

    init(width: Int) {
        title = width - fixed
        for step in Self.giveUp where title < Self.minTitle {
            switch step {
            case .narrowCategory: category = Self.narrowCategory
            case .shortDue: due = Self.shortDue
            case .noCategory: category = 0
            case .noDuration: duration = 0
            case .noDue: due = 0
            }
            title = width - fixed
        }
        title = max(1, title)
    }

    /// Cells taken by everything but the title (each column after its space).
    private var fixed: Int {
        var cells = Self.marker + (1 + Self.urgency) + (1 + Self.importance)
        for column in [duration, category, due] where column > 0 { cells += 1 + column }
        return cells
    }

    /// A due date as the due column shows it in `cells` cells: overdue ends
    /// in `!`, today reads `today`; the short form drops the year when it is
    /// this year's, else shows only the year.
    static func dueText(_ due: DueDate?, today: DueDate?, cells: Int) -> String {
        guard let due else { return "" }
        let when = today.map { DueState(due, today: $0) } ?? .none
        if when == .today { return "today" }
        let mark = when == .overdue ? "!" : ""
        if cells >= fullDue { return due.description + mark }
        let text = due.description
        if let today, today.year == due.year { return String(text.dropFirst(5)) + mark }
        return String(text.prefix(4)) + mark
    }
}
