import Foundation
import Testing

/// Issue 35 in a real terminal: renaming an occurrence of a series asks
/// whether it is for this one only or the series, and the next occurrence
/// (made by `x`) shows which was chosen.
@Suite struct TUISeriesScopeTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    /// Renames the series' first occurrence to `title`, answers `answer`,
    /// completes it, and returns the titles of the open tasks then.
    func renameAnswerAndComplete(_ title: String, _ answer: String) throws -> [String] {
        _ = try cli.run("add", "Team sync", "--recur", "every monday", "--due", "2026-01-05")
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        try tmux.expectToSee("Next Up 0 · Backlog 1")
        try tmux.keys("e")
        try tmux.expectToSee("Title: ")
        try tmux.keys("C-u")
        try tmux.type(title)
        try tmux.keys("Enter")
        try tmux.expectToSee("This one only or the whole series?")
        try tmux.keys(answer)
        try tmux.expectToSee("title: “\(title)”")
        try tmux.keys("x")
        try tmux.expectToSee("the next one is in the Backlog")
        var open: [String] = []
        _ = eventually {
            let export = (try? cli.run("export").stdout) ?? ""
            let tasks = (try? JSONSerialization.jsonObject(with: Data(export.utf8))) as? [[String: Any]] ?? []
            open = tasks.filter { $0["done"] as? Bool == false && $0["deleted"] as? Bool == false }.compactMap { $0["title"] as? String }
            return open.count == 1
        }
        try tmux.keys("q")
        return open
    }

    @Test func tRenamesThisOccurrenceOnly() throws {
        #expect(try renameAnswerAndComplete("Team sync with Ann", "t") == ["Team sync"], "the next one has the series' title")
    }

    @Test func sRenamesTheSeries() throws {
        #expect(try renameAnswerAndComplete("Weekly team sync", "s") == ["Weekly team sync"])
    }
}
