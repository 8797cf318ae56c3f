import Foundation
import Testing

/// A mistake in the config file shows on the task screen's status line as
/// the TUI starts (issue 33): whole when it is short, else a pointer to
/// `nextup doctor`, which lists every one.
@Suite struct TUIConfigNoticeTests {
    let scratch = Scratch()

    func cli(config: String) throws -> NextupProcess {
        let file = scratch.path("config.toml")
        try Data(config.utf8).write(to: file)
        return NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path, "NEXTUP_CONFIG": file.path])
    }

    @Test func unknownSettingsShowOnTheStatusLineAtStart() throws {
        let cli = try cli(config: "pier = \"/tmp/x\"\ncategoris = [\"Work\"]\n")
        _ = try cli.run("add", "Plain title")
        let tmux = try TUITmux(environment: cli.environment, width: 100, height: 30)
        try tmux.run("\"\(NextupProcess.binary.path)\"; echo \"exit=$?\"")
        try tmux.expectToSee("the config file has 2 problems: nextup doctor says what")
        try tmux.expectToSee("Plain title")
        try tmux.keys("q")
        try tmux.expectToSee("exit=0")
    }

    @Test func aShortNoticeShowsWhole() throws {
        // A config path short enough that the whole notice fits the line.
        let file = URL(fileURLWithPath: "/tmp/n\(Int.random(in: 1000...9999)).toml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("pier = \"/tmp/x\"\n".utf8).write(to: file)
        let cli = NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path, "NEXTUP_CONFIG": file.path])
        _ = try cli.run("add", "Plain title")
        let tmux = try TUITmux(environment: cli.environment, width: 100, height: 30)
        try tmux.run("\"\(NextupProcess.binary.path)\"; echo \"exit=$?\"")
        try tmux.expectToSee("config file \(file.path), line 1: unknown setting 'pier' (did you mean peer?)")
        try tmux.expectToSee("Plain title")
        try tmux.keys("q")
        try tmux.expectToSee("exit=0")
    }
}
