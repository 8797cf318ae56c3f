import Foundation
import Testing

/// Issue 36 in a real terminal at 100×30: a title race between two stores
/// over a peer folder shows in the detail view's changes pane, marked, and
/// the losing value is written back from there with one key — only while
/// the title still holds what the pane showed.
@Suite struct TUIChangesTests {
    let scratch = Scratch()

    func nextup(_ store: String) -> NextupProcess {
        NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path(store).path, "NEXTUP_PEER": scratch.path("peer").path])
    }

    func title(_ process: NextupProcess, _ id: String) throws -> String? {
        let r = try process.run(["show", id, "--json"])
        return ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any])?["title"] as? String
    }

    @Test func theLoserOfATitleRaceIsRestoredFromTheDetailView() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let laptop = nextup("a"), desktop = nextup("b")
        let id = String(try laptop.run("add", "Buy milk").out.prefix(8))
        _ = try laptop.run("machine", "laptop")
        #expect(try desktop.run("sync").status == 0)
        _ = try desktop.run("machine", "desktop")
        #expect(try laptop.run("edit", id, "--title", "Buy oat milk").status == 0)
        #expect(try desktop.run("edit", id, "--title", "Buy soy milk").status == 0)
        #expect(try laptop.run("sync").status == 0)
        #expect(try desktop.run("sync").status == 0)
        let winner = try #require(try title(laptop, id))
        let loser = winner == "Buy oat milk" ? "Buy soy milk" : "Buy oat milk"
        // Seen already: no "while you were away" at start.
        #expect(try laptop.run("changes").status == 0)

        let tmux = try TUITmux(environment: laptop.environment)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        try tmux.expectToSee(winner)
        try tmux.keys("Enter")
        try tmux.expectToSee("Changes, newest first")
        try tmux.expectToSee("lost a race with")
        // Select the losing entry: `]` walks to older entries.
        var selected = false
        for _ in 0..<6 where !selected {
            try tmux.keys("]")
            selected = try tmux.waitForScreen(timeout: 3) { $0.contains { $0.contains(" > ") && $0.contains("lost a race") } }.ok
        }
        let shown = try tmux.screen().joined(separator: "\n")
        #expect(selected, "\(shown)")
        try tmux.keys("R")
        try tmux.expectToSee("restored title")
        #expect(try eventually { try title(laptop, id) == loser })

        // Shown, then changed elsewhere: R is refused and nothing is written.
        try tmux.expectToSee("\(loser)”  (now)")
        try tmux.keys("[")
        try tmux.keys("]")
        #expect(try laptop.run("edit", id, "--title", "Buy rice milk").status == 0)
        try tmux.keys("R")
        try tmux.expectToSee("nothing changed")
        #expect(try title(laptop, id) == "Buy rice milk")
        try tmux.keys("q")
    }
}
