import Foundation
import Testing

/// Issue 13 in a real terminal at 100×30: a task marked done leaves the list
/// after its grace and the header agrees with `nextup count`; H lists done
/// and deleted tasks, where x reopens and D restores.
@Suite struct TUIHistoryTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    func waitFor(_ tmux: TUITmux, _ text: String, timeout: Double = 15) throws {
        let seen = try tmux.waitForScreen(timeout: timeout) { $0.contains { $0.contains(text) } }
        #expect(seen.ok, "waiting for “\(text)”:\n\(seen.screen.joined(separator: "\n"))")
    }

    func field(_ id: String, _ name: String) throws -> Any? {
        let r = try cli.run(["show", id, "--json"])
        return ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any])?[name]
    }

    @Test func doneLeavesTheListAndTheHistoryBringsTasksBack() throws {
        let first = try cli.run("add", "Alpha task", "--importance", "3").out
        let second = try cli.run("add", "Beta task", "--importance", "2").out
        _ = try cli.run("add", "Gamma task", "--importance", "1")
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        try waitFor(tmux, "Next Up 0 · Backlog 3")
        try tmux.keys("x")  // Alpha, the top row
        try waitFor(tmux, "✓ Alpha task")
        try waitFor(tmux, "Next Up 0 · Backlog 2")
        #expect(try cli.run("count").out.hasPrefix("2"))
        let gone = try tmux.waitForScreen { !$0.contains { $0.contains("Alpha task") } }
        #expect(gone.ok, "the done row leaves after its grace:\n\(gone.screen.joined(separator: "\n"))")

        try tmux.keys("D")  // Beta, now the top row
        try waitFor(tmux, "deleted “Beta task”")
        try tmux.keys("H")
        try waitFor(tmux, "History · 2")
        let rows = try tmux.screen()
        let beta = rows.firstIndex { $0.contains("Beta task") }, alpha = rows.firstIndex { $0.contains("Alpha task") }
        #expect(beta != nil && alpha != nil && beta! < alpha!, "most recent first:\n\(rows.joined(separator: "\n"))")
        try tmux.keys("D")
        #expect(try eventually { try field(second, "deleted") as? Bool == false })
        try waitFor(tmux, "History · 1")
        try tmux.keys("x")
        #expect(try eventually { try field(first, "done") as? Bool == false })
        try waitFor(tmux, "History · 0")
        try tmux.keys("Escape")
        try waitFor(tmux, "Next Up 0 · Backlog 3")
        try tmux.keys("q")
    }
}
