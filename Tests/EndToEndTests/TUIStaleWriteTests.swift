import Foundation
import Testing

/// Issue 9's reproductions 2–5, as a person meets them in a real terminal:
/// undo after a change made elsewhere, a prompt open while the task changes,
/// a paste with a line break, Ctrl-C and SIGTERM. Each failed on the main of
/// the issue (the shell's value was overwritten, the paste ran as keys, Ctrl-C
/// quit with status 0).
@Suite(.serialized) struct TUIStaleWriteTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }
    var bin: String { NextupProcess.binary.path }

    func add(_ args: String...) throws -> String {
        let r = try cli.run(["add"] + args)
        #expect(r.status == 0, "\(r)")
        return r.out
    }

    func field(_ id: String, _ name: String, store: String? = nil) throws -> Any? {
        let args = (store.map { ["--store", $0] } ?? []) + ["show", id, "--json"]
        let r = try cli.run(args)
        return ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any])?[name]
    }

    func open(_ extra: String = "") throws -> TUITmux {
        let tmux = try TUITmux(environment: cli.environment)
        // The shell prints the exit status once the TUI ends.
        try tmux.run("\"\(bin)\"\(extra); echo \"exit=$?\"")
        #expect(try tmux.waitFor("Backlog ·"), "the TUI should open")
        return tmux
    }

    func waitFor(_ tmux: TUITmux, _ text: String) throws {
        let seen = try tmux.waitForScreen { $0.contains { $0.contains(text) } }
        #expect(seen.ok, "waiting for “\(text)”:\n\(seen.screen.joined(separator: "\n"))")
    }

    @Test func undoLeavesAChangeMadeElsewhereAndSaysWhatItIs() throws {
        let id = try add("Plan the week", "--importance", "1")
        let tmux = try open()
        try waitFor(tmux, "Plan the week")
        try tmux.keys("i")
        #expect(try eventually { try field(id, "importance") as? Int == 2 })
        #expect(try cli.run("edit", id, "--importance", "3", "--duration", "45m").status == 0)
        try tmux.keys("z")
        try waitFor(tmux, "cannot undo importance of “Plan the week”: importance is now 3, changed on this machine")
        #expect(try field(id, "importance") as? Int == 3, "the shell's value stays")
        #expect(try field(id, "duration") as? Int == 45)

        // Nobody touched it since: undo and redo both work.
        try tmux.keys("u")
        #expect(try eventually { try field(id, "urgency") as? String == "urgent" })
        try tmux.keys("z")
        #expect(try eventually { try field(id, "urgency") is NSNull })
        try tmux.keys("Z")
        #expect(try eventually { try field(id, "urgency") as? String == "urgent" })
        // A change from the shell now stops the redo chain's next undo.
        #expect(try cli.run("edit", id, "--urgency", "not-urgent").status == 0)
        try tmux.keys("z")
        try waitFor(tmux, "cannot undo urgency")
        #expect(try field(id, "urgency") as? String == "not-urgent")
        try tmux.keys("q")
        try waitFor(tmux, "exit=0")
    }

    @Test func aPromptOpenWhileTheTaskIsRenamedAsksBeforeWriting() throws {
        let id = try add("Draft")
        let tmux = try open()
        try waitFor(tmux, "Draft")

        // Keep theirs.
        try tmux.keys("e"); try tmux.type(" mine")
        #expect(try cli.run("edit", id, "--title", "Renamed in the shell").status == 0)
        try tmux.keys("Enter")
        try waitFor(tmux, "title is now “Renamed in the shell”, changed on this machine")
        try waitFor(tmux, "o overwrite with yours: “Draft mine” · k keep theirs · e edit")
        #expect(try field(id, "title") as? String == "Renamed in the shell", "Enter wrote nothing")
        try tmux.keys("k")
        try waitFor(tmux, "kept the other change")
        #expect(try field(id, "title") as? String == "Renamed in the shell")

        // Overwrite, once seen.
        try tmux.keys("e", "C-u"); try tmux.type("Mine after all")
        #expect(try cli.run("edit", id, "--title", "Second rename").status == 0)
        try tmux.keys("Enter")
        try waitFor(tmux, "title is now “Second rename”")
        try tmux.keys("o")
        #expect(try eventually { try field(id, "title") as? String == "Mine after all" })

        // Deleted meanwhile: Enter does not write into the deleted task.
        try tmux.keys("e"); try tmux.type(" again")
        #expect(try cli.run("delete", id).status == 0)
        try tmux.keys("Enter")
        try waitFor(tmux, "it was deleted, changed on this machine")
        try tmux.keys("Escape")
        #expect(try field(id, "title") as? String == "Mine after all")
        #expect(try field(id, "deleted") as? Bool == true)
        try tmux.keys("q")
    }

    @Test func aPromptOpenWhileAnotherMachineRenamesTheTaskAsksToo() throws {
        let peer = scratch.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let laptop = scratch.path("laptop").path
        let id = try add("Shared task")
        #expect(try cli.run("--peer", peer.path, "sync").status == 0)
        #expect(try cli.run("--store", laptop, "--peer", peer.path, "sync").status == 0)

        let tmux = try open(" --peer \"\(peer.path)\"")
        try waitFor(tmux, "Shared task")
        try tmux.keys("e"); try tmux.type(" (desk)")
        #expect(try cli.run("--store", laptop, "--peer", peer.path, "edit", id, "--title", "Renamed on the laptop").status == 0)
        #expect(try cli.run("--store", laptop, "--peer", peer.path, "sync").status == 0)
        // The TUI's engine merges it: the row shows it while the prompt stays open.
        try waitFor(tmux, "Renamed on the laptop")
        try tmux.keys("Enter")
        try waitFor(tmux, "title is now “Renamed on the laptop”, changed on another machine")
        try tmux.keys("k")
        #expect(try field(id, "title") as? String == "Renamed on the laptop")
        try tmux.keys("q")
    }

    @Test func aPasteIsTextInAPromptAndNeverKeys() throws {
        let target = try add("Target", "--importance", "3")
        let other = try add("Bystander", "--importance", "1")
        let tmux = try open()
        try waitFor(tmux, "▸ Target")
        try tmux.keys("e", "C-u")
        _ = try tmux.tmux(["set-buffer", "renamed\njust Do it"])
        _ = try tmux.tmux(["paste-buffer", "-p", "-t", "main"])
        try waitFor(tmux, "Title: renamed just Do it")
        try tmux.keys("Enter")
        #expect(try eventually { try field(target, "title") as? String == "renamed just Do it" })
        // Nothing the paste spelled ran as a key.
        #expect(try field(other, "done") as? Bool == false)
        #expect(try field(other, "deleted") as? Bool == false)
        #expect(try field(target, "done") as? Bool == false)
        #expect(try field(target, "urgency") is NSNull)
        #expect(try field(other, "urgency") is NSNull)

        // Outside a prompt: ignored, said so.
        _ = try tmux.tmux(["set-buffer", "xDu"])
        _ = try tmux.tmux(["paste-buffer", "-p", "-t", "main"])
        try waitFor(tmux, "a paste does nothing outside a prompt")
        #expect(try field(target, "done") as? Bool == false)
        #expect(try field(target, "deleted") as? Bool == false)
        #expect(try field(target, "urgency") is NSNull)
        try tmux.keys("q")
    }

    @Test func ctrlCCancelsAPromptThenQuitsWith130() throws {
        let id = try add("Keep me")
        let tmux = try open()
        try waitFor(tmux, "Keep me")
        try tmux.keys("e"); try tmux.type(" typed")
        try waitFor(tmux, "Title: Keep me typed")
        try tmux.keys("C-c")
        try waitFor(tmux, "cancelled")
        #expect(try !tmux.screen().contains { $0.contains("exit=") }, "the app is still open")
        #expect(try field(id, "title") as? String == "Keep me")
        try tmux.keys("C-c")
        try waitFor(tmux, "exit=130")
    }

    @Test func sigtermQuitsWith143() throws {
        _ = try add("Anything")
        let tmux = try open()
        try waitFor(tmux, "Anything")
        let shell = try tmux.display("#{pane_pid}")
        let pgrep = Process()
        pgrep.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        pgrep.arguments = ["-TERM", "-P", shell, "-x", "nextup"]
        try pgrep.run()
        pgrep.waitUntilExit()
        #expect(pgrep.terminationStatus == 0, "pkill found the TUI")
        try waitFor(tmux, "exit=143")
    }
}
