import Foundation
import Testing

/// Issue 35 in a real terminal at 100×30: the keys of repeating and
/// deferred tasks, each driven as a person would, checked in the store
/// through the command line.
@Suite struct TUISeriesTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    func shown(_ id: String) throws -> [String: Any] {
        let r = try cli.run(["show", id, "--json"])
        return (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any] ?? [:]
    }

    @Test func repeatDeferSkipStopAndTheLaterView() throws {
        let id = try cli.run("add", "Water plants", "--due", "2026-01-05").out
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        try tmux.expectToSee("Next Up 0 · Backlog 1")

        // O: a rule it cannot read is one line on the status line; words work.
        try tmux.keys("O")
        try tmux.expectToSee("Repeat (")
        try tmux.type("every blursday")
        try tmux.keys("Enter")
        try tmux.expectToSee("'blursday'")
        try tmux.keys("C-u")
        try tmux.type("every monday")
        try tmux.keys("Enter")
        try tmux.expectToSee("repeats every week on monday")
        try tmux.expectToSee("▸↻Water plants")
        #expect(try eventually { try shown(id)["recur"] as? String == "FREQ=WEEKLY;BYDAY=MO" })

        // Enter: the details say the rule, the occurrence and the next due date.
        try tmux.keys("Enter")
        try tmux.expectToSee("every week on monday · FREQ=WEEKLY;BYDAY=MO")
        try tmux.expectToSee("occurrence 1 · next due 2026-01-12")
        try tmux.keys("Escape")

        // S asks, y skips: the next occurrence takes its place.
        try tmux.keys("S")
        try tmux.expectToSee("Skip this occurrence?")
        try tmux.keys("y")
        try tmux.expectToSee("skipped this occurrence")
        try tmux.expectToSee("2026-01-12")
        #expect(try shown(id)["deleted"] as? Bool == true)

        // x on an occurrence: done, and the next one made.
        try tmux.expectToSee("▸↻Water plants")
        try tmux.keys("x")
        try tmux.expectToSee("the next one is in the Backlog")
        try tmux.expectToSee("2026-01-19")
        // X asks, y stops the series: the occurrence stays, without a rule.
        let third = try tmux.waitForScreen { !$0.contains { $0.contains("✓") } }
        #expect(third.ok)
        try tmux.keys("X")
        try tmux.expectToSee("Stop repeating?")
        try tmux.keys("y")
        try tmux.expectToSee("no longer repeats")
        try tmux.expectToSee("▸ Water plants")
        // w defers it, with the due date's words.
        try tmux.keys("w")
        try tmux.expectToSee("Defer until")
        try tmux.type("2099-01-01")
        try tmux.keys("Enter")
        try tmux.expectToSee("deferred until 2099-01-01")
        let tasks = try JSONSerialization.jsonObject(with: Data(try cli.run("export").stdout.utf8)) as? [[String: Any]] ?? []
        let plants = tasks.filter { $0["title"] as? String == "Water plants" }
        #expect(plants.count == 3, "skipped, done, and the stopped one")
        let open = plants.filter { $0["done"] as? Bool == false && $0["deleted"] as? Bool == false }
        #expect(open.count == 1 && open.first?["recur"] is NSNull && open.first?["defer"] as? String == "2099-01-01", "\(open)")
        try tmux.keys("q")
    }

    /// A TUI left open overnight (its clock moved by `faketime`, three
    /// seconds before midnight): the task deferred to the next day comes into
    /// the Backlog by itself at midnight, no key pressed.
    @Test func aDeferredTaskAppearsByItselfAtMidnight() throws {
        _ = try cli.run("add", "Visible today")
        _ = try cli.run("add", "Renew passport", "--defer", "2026-01-06")
        var environment = cli.environment
        environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        environment["TZ"] = "UTC"
        let tmux = try TUITmux(environment: environment)
        try tmux.run("faketime -f '@2026-01-05 23:59:57' \"\(NextupProcess.binary.path)\"")
        try tmux.expectToSee("Next Up 0 · Backlog 1")
        #expect(!(try tmux.screen()).contains { $0.contains("Renew passport") })
        try tmux.expectToSee("Renew passport", timeout: 20)
        try tmux.expectToSee("Next Up 0 · Backlog 2")
        try tmux.keys("q")
    }
}
