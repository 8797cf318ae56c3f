import Foundation
import Testing

/// Issue 13's terminals, for real: TERM=dumb refuses in one line, LANG=C
/// draws ASCII marks and still shows titles, backspace takes a whole
/// grapheme.
@Suite struct TUITerminalTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }
    var bin: String { NextupProcess.binary.path }

    func waitFor(_ tmux: TUITmux, _ text: String) throws {
        let seen = try tmux.waitForScreen { $0.contains { $0.contains(text) } }
        #expect(seen.ok, "waiting for “\(text)”:\n\(seen.screen.joined(separator: "\n"))")
    }

    @Test func aDumbTerminalIsRefusedInOneLine() throws {
        let tmux = try TUITmux(environment: cli.environment, width: 80, height: 24)
        let err = scratch.path("err.txt").path
        try tmux.run("TERM=dumb \"\(bin)\" 2>\(err); echo \"exit=$?\"")
        try waitFor(tmux, "exit=1")
        let lines = try String(contentsOfFile: err, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["nextup: TERM=dumb cannot show the task screen (it cannot move the cursor); nextup list and the other commands work"])
    }

    @Test func aCLocaleDrawsASCIIAndBackspaceTakesAWholeGrapheme() throws {
        _ = try cli.run("add", "Plain title")
        let tmux = try TUITmux(environment: cli.environment, width: 80, height: 24)
        try tmux.run("LC_ALL=C LANG=C \"\(bin)\"; echo \"exit=$?\"")
        try waitFor(tmux, "> Backlog | 1 | by score")
        try waitFor(tmux, "> Plain title")
        let screen = try tmux.screen().joined(separator: "\n")
        #expect(!screen.contains("▸") && !screen.contains("·"), "\(screen)")
        try tmux.keys("q")
        try waitFor(tmux, "exit=0")

        // In UTF-8: e + combining acute, one backspace, and it is gone.
        try tmux.run("clear; \"\(bin)\"")
        try waitFor(tmux, "▸ Backlog")
        try tmux.keys("a")
        try tmux.type("Cafe\u{301}")
        try tmux.keys("BSpace")
        try tmux.type("x")
        try tmux.keys("Enter")
        #expect(try eventually {
            let list = try cli.run("list", "--json").stdout
            return list.contains("\"Cafx\"")
        })
        try tmux.keys("q")
    }
}
