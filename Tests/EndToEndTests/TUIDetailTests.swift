import Foundation
import Testing

/// Issue 13, "see and change everything a task has", in a real terminal at
/// 80×24: the due-date key with a relative date, the detail view (Enter),
/// and notes written in `$EDITOR` — with the prompt-conflict rule when the
/// notes changed while the editor was open.
@Suite(.serialized) struct TUIDetailTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }
    var bin: String { NextupProcess.binary.path }

    func field(_ id: String, _ name: String) throws -> Any? {
        let r = try cli.run(["show", id, "--json"])
        return ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any])?[name]
    }

    /// An editor script: runs `before` (shell), then writes `text` into the file.
    func editor(_ name: String, writes text: String, before: String = "") throws -> String {
        let url = scratch.path(name)
        try "#!/bin/sh\n\(before)\nprintf '%s\\n' '\(text)' > \"$1\"\n".write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    func waitFor(_ tmux: TUITmux, _ text: String) throws {
        let seen = try tmux.waitForScreen { $0.contains { $0.contains(text) } }
        #expect(seen.ok, "waiting for “\(text)”:\n\(seen.screen.joined(separator: "\n"))")
    }

    @Test func dueKeyDetailViewAndNotesInTheEditor() throws {
        let add = try cli.run("add", "Write the report", "--category", "Deep Work")
        let id = add.out
        _ = try cli.run("add", "Call the bank", "--duration", "1h30m", "--next")
        _ = try cli.run("add", "Pay the rent", "--duration", "20m", "--next")
        _ = try cli.run("add", "Tidy the desk", "--next")
        let first = try editor("first.sh", writes: "Call back Tuesday")
        let tmux = try TUITmux(environment: cli.environment, width: 80, height: 24)
        try tmux.run("EDITOR=\(first) \"\(bin)\"; echo \"exit=$?\"")
        try waitFor(tmux, "Write the report")
        // The Next Up header adds up its durations, an unset one as ?.
        try waitFor(tmux, "Next Up · 3 · 1h50m (+1 ?)")

        // t: a relative date, counted from the local day.
        try tmux.keys("t")
        try waitFor(tmux, "Due (")
        try tmux.type("tomorrow")
        try tmux.keys("Enter")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = .current
        let tomorrow = formatter.string(from: Date().addingTimeInterval(86_400))
        #expect(try eventually { try field(id, "due") as? String == tomorrow })
        try waitFor(tmux, tomorrow)

        // Enter: every field, the short id, where the last change came from.
        try tmux.keys("Enter")
        try waitFor(tmux, "Task \(id.prefix(8))")
        try waitFor(tmux, "on this machine")
        try waitFor(tmux, "Deep Work")

        // N: the editor's text becomes the notes, shown in the detail view.
        try tmux.keys("N")
        #expect(try eventually { try field(id, "notes") as? String == "Call back Tuesday" })
        try waitFor(tmux, "   Call back Tuesday")
        try tmux.keys("Escape")
        try waitFor(tmux, "Backlog ·")
        try tmux.keys("q")
        try waitFor(tmux, "exit=0")
    }

    @Test func notesChangedWhileTheEditorWasOpenAskBeforeWriting() throws {
        let id = try cli.run("add", "Plan").out
        // The "editor" changes the notes from the shell meanwhile, then saves its own.
        let racing = try editor("racing.sh", writes: "mine", before: "\"\(bin)\" edit \(id) --notes theirs >/dev/null")
        let tmux = try TUITmux(environment: cli.environment, width: 80, height: 24)
        try tmux.run("EDITOR=\(racing) \"\(bin)\"; echo \"exit=$?\"")
        try waitFor(tmux, "Plan")
        try tmux.keys("N")
        try waitFor(tmux, "notes is now “theirs”, changed on this machine")
        try waitFor(tmux, "o overwrite with yours: “mine”")
        #expect(try field(id, "notes") as? String == "theirs", "nothing written before the person chose")
        try tmux.keys("o")
        #expect(try eventually { try field(id, "notes") as? String == "mine" })
        try tmux.keys("q")
        try waitFor(tmux, "exit=0")
    }
}
