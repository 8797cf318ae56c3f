import Foundation
import Testing

/// Issue 36 in a real terminal at 100×30: what another machine changed while
/// this machine's TUI was closed shows once at start ("while you were
/// away"), over the lists, until a key, which does nothing else; and the
/// status bar says which machines have this machine's last change.
@Suite struct TUIAwayTests {
    let scratch = Scratch()

    func nextup(_ store: String) -> NextupProcess {
        NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path(store).path, "NEXTUP_PEER": scratch.path("peer").path])
    }

    func isDone(_ process: NextupProcess, _ id: String) throws -> Bool {
        let r = try process.run(["show", id, "--json"])
        let object = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any]
        return object?["done"] as? Bool != false
    }

    @Test func whatAnotherMachineDidWhileTheTUIWasClosedShowsOnceAtStart() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let laptop = nextup("a"), desktop = nextup("b")
        _ = try laptop.run("machine", "laptop")
        _ = try desktop.run("machine", "desktop")
        let id = String(try laptop.run("add", "Call the bank").out.prefix(8))
        #expect(try desktop.run("sync").status == 0)
        // The laptop is closed; the desktop works.
        #expect(try desktop.run("edit", id, "--title", "Call the bank at nine").status == 0)
        #expect(try desktop.run("sync").status == 0)

        let tmux = try TUITmux(environment: laptop.environment)
        try tmux.run("\"\(NextupProcess.binary.path)\"; echo \"first=$?\"")
        // The lists are there under the overlay (the start-up sync brought the change).
        let shown = try tmux.waitForScreen { screen in
            screen.contains { $0.contains("While you were away") } && screen.contains { $0.contains("Call the bank at nine") }
        }
        #expect(shown.ok, "\(shown.screen.joined(separator: "\n"))")
        #expect(shown.screen.contains { $0.contains("desktop") && $0.contains("title: “Call the bank” → “Call the bank at nine”") },
                "\(shown.screen.joined(separator: "\n"))")
        // Any key goes on and does nothing else: x would have marked the task done.
        try tmux.keys("x")
        #expect(try tmux.waitForScreen { !$0.contains { $0.contains("While you were away") } }.ok)
        try tmux.keys("?")
        try tmux.expectToSee("Keys and their names")
        #expect(try !isDone(laptop, id))
        try tmux.keys("q", "q")
        try tmux.expectToSee("first=0")

        // Seen: the next start says nothing, and neither does `changes`.
        try tmux.run("\"\(NextupProcess.binary.path)\"; echo \"second=$?\"")
        try tmux.expectToSee("Call the bank at nine")
        try tmux.keys("?")
        try tmux.expectToSee("Keys and their names")
        #expect(!(try tmux.screen()).contains { $0.contains("While you were away") })
        try tmux.keys("q", "q")
        try tmux.expectToSee("second=0")
        #expect(try laptop.run("changes").stdout.hasPrefix("nothing new from other machines"))
    }

    @Test func theStatusBarSaysWhichMachinesHaveMyLastChange() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let laptop = nextup("a"), desktop = nextup("b")
        _ = try laptop.run("machine", "laptop")
        _ = try desktop.run("machine", "desktop")
        let id = String(try laptop.run("add", "Renew the passport").out.prefix(8))
        // A machine says how far it merged on a line of its own changes: the desktop has made one.
        #expect(try desktop.run("add", "Water the plants").status == 0)
        for machine in [desktop, laptop] { #expect(try machine.run("sync").status == 0) }
        _ = try laptop.run("changes")

        let tmux = try TUITmux(environment: laptop.environment)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        try tmux.expectToSee("Renew the passport")
        try tmux.keys("/")
        try tmux.type("passport")
        try tmux.keys("Enter")
        try tmux.keys("u")
        try tmux.expectToSee("last change: desktop not yet")
        #expect(try eventually { try laptop.run("show", id, "--json").stdout.contains("\"urgency\" : \"") })
        // The desktop merges it (its log says so); the laptop's screen follows without a key.
        #expect(try eventually {
            _ = try desktop.run("sync")
            return try tmux.waitFor("last change: desktop has it", timeout: 3)
        })
        try tmux.keys("q")
    }
}
