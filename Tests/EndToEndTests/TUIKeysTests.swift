import Foundation
import Testing

/// Issue 13's keys: a bad `[keys]` table is reported at start and by
/// `doctor`; the footer and help show the keys actually bound; everything
/// fits 80×24.
@Suite struct TUIKeysTests {
    let scratch = Scratch()
    var cli: NextupProcess {
        NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path,
                                                 "NEXTUP_CONFIG": scratch.path("config.toml").path])
    }


    @Test func badBindingsAreReportedAtStartAndByDoctorAndTheFooterShowsTheBoundKeys() throws {
        try "[keys]\nquit = \"Q\"\nhelp = \"F1\"\nlaunch-rockets = \"l\"\nsync = \"y\"\nsort = \"y\"\n"
            .write(to: scratch.path("config.toml"), atomically: true, encoding: .utf8)
        let doctor = try cli.run("doctor")
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("unknown action 'launch-rockets'"), "\(doctor)")
        #expect(doctor.stdout.contains("key 'y' is bound to both sort and sync in [keys]; sync keeps it"), "\(doctor)")

        _ = try cli.run("add", "Only task")
        let tmux = try TUITmux(environment: cli.environment, width: 80, height: 24)
        try tmux.run("\"\(NextupProcess.binary.path)\"; echo \"exit=$?\"")
        try tmux.expectToSee("problems: nextup doctor says what")
        try tmux.expectToSee("f1 help · Q quit")
        try tmux.keys("F1")
        // Every action by name, nothing cut at 80×24. The capture may land
        // while the terminal is still drawing, so wait for the whole help.
        let names = ["move-down", "set-due", "edit-notes", "details", "history", "toggle-done", "quit", "redraw",
                     "restore-change"]
        let help = try tmux.waitForScreen { screen in
            let text = screen.joined(separator: "\n")
            return names.allSatisfy { text.contains($0) }
        }
        let text = help.screen.joined(separator: "\n")
        #expect(help.ok, "help names every action:\n\(text)")
        #expect(!text.contains("make the window taller"), "\(text)")
        #expect(text.contains(" Q ") || text.contains(" Q  "), "help shows the bound quit key:\n\(text)")
        try tmux.keys("Escape")
        try tmux.expectToSee("Backlog ·")
        try tmux.keys("Q")
        try tmux.expectToSee("exit=0")
    }

    @Test func tooSmallAndLongPanesSaySo() throws {
        for i in 1...30 { _ = try cli.run("add", "Task number \(i)") }
        let tmux = try TUITmux(environment: cli.environment, width: 80, height: 24)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        try tmux.expectToSee("Backlog · 30 · by score · 1-")
        try tmux.resize(width: 30, height: 8)
        try tmux.expectToSee("Terminal too small")
        try tmux.expectToSee("Make the window larger, or")
        try tmux.expectToSee("press q to quit.")
        try tmux.resize(width: 80, height: 24)
        try tmux.expectToSee("Backlog · 30")
        try tmux.keys("q")
    }
}
