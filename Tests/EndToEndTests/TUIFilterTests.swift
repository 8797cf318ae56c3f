import Foundation
import Testing

/// Issue 13's filter as you type, in a real terminal at 80×24: the lists
/// and the count follow each key, quoting, `due:` and `is:`, an unknown key
/// said at once, Esc clears.
@Suite struct TUIFilterTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    func waitFor(_ tmux: TUITmux, _ text: String) throws {
        let seen = try tmux.waitForScreen { $0.contains { $0.contains(text) } }
        #expect(seen.ok, "waiting for “\(text)”:\n\(seen.screen.joined(separator: "\n"))")
    }

    @Test func filterAsYouType() throws {
        _ = try cli.run("add", "Write the essay", "--category", "Deep Work", "--urgency", "urgent")
        _ = try cli.run("add", "Pay the rent", "--category", "Admin", "--due", "today")
        _ = try cli.run("add", "Call the bank", "--due", "2020-01-01")
        let tmux = try TUITmux(environment: cli.environment, width: 80, height: 24)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        try waitFor(tmux, "Next Up 0 · Backlog 3")
        // Due today reads "today", overdue ends in "!".
        try waitFor(tmux, "today")
        try waitFor(tmux, "2020-01-01!")
        try tmux.keys("/")
        try tmux.type("cat:\"Deep W")
        try waitFor(tmux, "0 matches")
        try tmux.type("ork\"")
        try waitFor(tmux, "1 match · Esc clears")
        try waitFor(tmux, "Write the essay")
        try tmux.type(" colour:")
        try waitFor(tmux, "unknown filter 'colour:'")
        try tmux.keys("Escape")
        try waitFor(tmux, "filter cleared")
        try waitFor(tmux, "Next Up 0 · Backlog 3")
        try tmux.keys("/")
        try tmux.type("due:overdue")
        try waitFor(tmux, "1 match")
        try waitFor(tmux, "Call the bank")
        try tmux.keys("C-u")
        try tmux.type("is:urgent")
        try waitFor(tmux, "Write the essay")
        try tmux.keys("Enter")
        try waitFor(tmux, "filter: is:urgent · 1 match")
        try tmux.keys("Escape")
        try waitFor(tmux, "Next Up 0 · Backlog 3")
        try tmux.keys("q")
    }
}
