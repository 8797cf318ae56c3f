import Testing
@testable import NextUpTUI

/// The screen places text by the cells ``TerminalWidth`` counts, not by
/// where curses moves on: after `✈️` (curses counts one cell, the terminal
/// draws two) the next character starts at its own column.
@Suite struct ScreenWritePlanTests {
    typealias Write = NcursesScreen.Write

    @Test func spansStartAtTheirColumns() {
        let line = ScreenLine([Span("▸ ", .normal), Span("日本 Café", .selected), Span(" x", .unset)])
        #expect(NcursesScreen.writePlan(line) == [
            Write(x: 0, text: "▸ ", style: .normal),
            Write(x: 2, text: "日本 Café", style: .selected),
            Write(x: 11, text: " x", style: .unset),
        ])
    }

    @Test func textAfterAnEmojiMadeByVS16StartsAtItsComputedColumn() {
        let line = ScreenLine([Span("a✈️b ✈️", .normal), Span("|", .unset)])
        #expect(NcursesScreen.writePlan(line) == [
            Write(x: 0, text: "a✈️", style: .normal),
            Write(x: 3, text: "b ✈️", style: .normal),
            Write(x: 7, text: "|", style: .unset),
        ])
    }

    @Test func aClusterCursesCountsWiderIsNotCut() {
        // A ZWJ family: curses moves on six cells, the line counts two.
        let family = "👨‍👩‍👧"
        let plan = NcursesScreen.writePlan(ScreenLine([Span(family + "z", .normal), Span("|", .unset)]))
        #expect(plan == [Write(x: 0, text: family + "z", style: .normal), Write(x: 3, text: "|", style: .unset)])
    }
}
