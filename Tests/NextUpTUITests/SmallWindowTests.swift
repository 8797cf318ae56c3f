import Testing
import NextUpCore
@testable import NextUpTUI

/// Issue 33, item 4, as pure layout: the order in which narrow rows give up
/// columns (the overdue `!` last), the help paging on a short screen, and
/// the prompt label that never runs into its text.
@Suite struct SmallWindowTests {
    @Test func columnsGiveUpRoomInTheStatedOrderAndTheTitleKeepsItsMinimum() {
        var previous = RowColumns(width: 200)
        for width in stride(from: 199, through: Layout.minWidth, by: -1) {
            let cols = RowColumns(width: width)
            // Never more of any column on a narrower screen.
            #expect(cols.duration <= previous.duration && cols.category <= previous.category && cols.due <= previous.due)
            #expect(cols.title >= RowColumns.minTitle || cols.due == 0, "\(width): \(cols)")
            // The due date goes only after the category and the duration are gone.
            if cols.due == 0 { #expect(cols.category == 0 && cols.duration == 0) }
            if cols.duration == 0 { #expect(cols.category == 0) }
            previous = cols
        }
        let small = RowColumns(width: 60)
        #expect(small.due == RowColumns.shortDue && small.category == RowColumns.narrowCategory)
        #expect(RowColumns(width: Layout.minWidth).due == RowColumns.shortDue)
        #expect(RowColumns(width: 80).due == RowColumns.fullDue && RowColumns(width: 80).category == RowColumns.wideCategory)
    }

    @Test func theShortDueKeepsTheOverdueMark() throws {
        let today = try DueDate(year: 2026, month: 12, day: 5)
        #expect(RowColumns.dueText(try DueDate(year: 2026, month: 12, day: 2), today: today, cells: 6) == "12-02!")
        #expect(RowColumns.dueText(try DueDate(year: 2025, month: 11, day: 2), today: today, cells: 6) == "2025!")
        #expect(RowColumns.dueText(try DueDate(year: 2027, month: 1, day: 9), today: today, cells: 6) == "2027")
        #expect(RowColumns.dueText(today, today: today, cells: 6) == "today")
        #expect(RowColumns.dueText(try DueDate(year: 2026, month: 12, day: 2), today: today, cells: 11) == "2026-12-02!")
    }

    @Test func anOverdueRowShowsItsMarkAt60Columns() throws {
        var t = Fixture.task("Pay the rent", category: "Home")
        t.due = try DueDate(year: 2020, month: 1, day: 1)
        var s = Fixture.state([t], width: 60, height: 20)
        s.utcOffsetSeconds = 0
        let row = MainView.frame(s).text.first { $0.contains("Pay the rent") } ?? ""
        #expect(row.contains("2020!") && row.contains("Home"), "\(row)")
    }

    @Test func helpPagesOnAShortScreenAndSaysWhere() {
        var s = Fixture.state([Fixture.task("One")], width: 60, height: 20)
        _ = s.send(Fixture.keys("?"))
        let (page, lastTop) = HelpView.scrolling(s)
        #expect(lastTop > 0 && page > 0)
        var text = MainView.frame(s).text.joined(separator: "\n")
        #expect(text.contains("lines 1-\(page) of \(page + lastTop)"))
        _ = s.send(.key(.char("j")))
        #expect(s.showHelp && s.helpTop == 1)
        _ = s.send(.key(.char(" ")), .key(.pageDown), .key(.pageDown), .key(.pageDown))
        #expect(s.helpTop == lastTop)
        text = MainView.frame(s).text.joined(separator: "\n")
        #expect(text.contains("of \(page + lastTop) · the end"))
        #expect(text.contains("A paste is text in a prompt"), "the last line of the help shows at the end")
        _ = s.send(.key(.char("k")))
        #expect(s.helpTop == lastTop - 1)
        _ = s.send(.key(.char("q")))
        #expect(!s.showHelp && s.helpTop == 0)
        // A help that fits closes on any key, j included.
        var big = Fixture.state([Fixture.task("One")], width: 100, height: 40)
        _ = big.send(Fixture.keys("?j"))
        #expect(!big.showHelp)
    }

    @Test func thePromptLabelNeverRunsIntoItsText() {
        let due = "Due (2026-12-24, today, fri, eow, +3d; empty = unset): "
        #expect(StatusView.promptLabel(due, width: 100, text: "2026-12-02") == due)
        #expect(StatusView.promptLabel(due, width: 60, text: "2026-12-02") == "Due: ")
        for width in [40, 50, 60, 70, 80, 100] {
            let label = StatusView.promptLabel(due, width: width, text: "2026-12-02")
            #expect(label.hasSuffix(" ") && TerminalWidth.width(of: label) <= width / 2 || label == due)
        }
    }
}
