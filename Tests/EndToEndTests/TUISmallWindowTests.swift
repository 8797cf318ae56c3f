import Foundation
import Testing

/// Issue 33, item 4, in tmux: at 60×20 an overdue task keeps its `!` beside
/// its category, and the help pages (j, space) saying which lines show; at
/// 100×30 the due prompt's label stays apart from the date it holds.
@Suite(.serialized) struct TUISmallWindowTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }
    var bin: String { NextupProcess.binary.path }

    @Test func overdueMarkAndPagedHelpAt60x20() throws {
        _ = try cli.run("add", "Pay the rent", "--category", "Home", "--due", "2020-01-01")
        let tmux = try TUITmux(environment: cli.environment, width: 60, height: 20)
        try tmux.run("\"\(bin)\"; echo \"exit=$?\"")
        try tmux.expectToSee("Pay the rent")
        let row = try tmux.screen().first { $0.contains("Pay the rent") } ?? ""
        #expect(row.contains("2020!") && row.contains("Home"), "\(row)")

        try tmux.keys("?")
        try tmux.expectToSee("lines 1-")
        let first = try tmux.screen().joined(separator: "\n")
        try tmux.keys("j")
        try tmux.expectToSee("lines 2-")
        try tmux.keys("Space", "Space", "Space")
        try tmux.expectToSee("the end")
        try tmux.expectToSee("A paste is text in a prompt")
        #expect(!first.contains("A paste is text in a prompt"))
        try tmux.keys("Escape")
        try tmux.expectToSee("Backlog ·")
        try tmux.keys("q")
        try tmux.expectToSee("exit=0")
    }

    @Test func duePromptLabelStaysApartFromItsValueAt100Columns() throws {
        _ = try cli.run("add", "Plan the trip", "--due", "2026-12-02")
        let tmux = try TUITmux(environment: cli.environment, width: 100, height: 30)
        try tmux.run("\"\(bin)\"; echo \"exit=$?\"")
        try tmux.expectToSee("Plan the trip")
        try tmux.keys("t")
        try tmux.expectToSee("empty = unset): 2026-12-02")
        try tmux.keys("Escape", "q")
        try tmux.expectToSee("exit=0")
    }
}
