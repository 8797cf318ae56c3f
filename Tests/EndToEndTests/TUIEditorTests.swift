import Foundation
import Testing

/// Issue 33, items 1 and 2: notes in `$EDITOR` with real editors that read
/// the terminal — `vi` (the fallback when `$EDITOR` is unset), `vim -u NONE`
/// (an `$EDITOR` with arguments), nano, a shell script that reads a line —
/// driven by keys in tmux: the editor opens and works, the notes are saved,
/// the list screen comes back; Ctrl-C in the editor reaches the editor only;
/// notes over the limit are kept in a file the status line names.
@Suite(.serialized) final class TUIEditorTests {
    let scratch = Scratch()
    /// The editor's temporary files: a short path, so that a message naming
    /// one fits the line.
    let temp = FileManager.default.temporaryDirectory.appendingPathComponent("nu-\(UUID().uuidString.prefix(6))")

    deinit { try? FileManager.default.removeItem(at: temp) }
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }
    var bin: String { NextupProcess.binary.path }

    func notes(_ id: String) throws -> String? {
        let r = try cli.run(["show", id, "--json"])
        return ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any])?["notes"] as? String
    }

    /// The TUI in tmux on a store with one task, `editor` as `$EDITOR` (nil:
    /// unset) and the temporary files in a folder of the test's own.
    func start(editor: String?) throws -> (TUITmux, id: String) {
        let id = try cli.run("add", "Call the bank").out
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        let tmux = try TUITmux(environment: cli.environment, width: 100, height: 30)
        let editorSetting = editor.map { "EDITOR='\($0)'" } ?? "unset EDITOR;"
        try tmux.run("\(editorSetting) TMPDIR='\(temp.path)' \"\(bin)\"; echo \"exit=$?\"")
        try tmux.expectToSee("Call the bank")
        return (tmux, id)
    }

    /// Types into vi or vim: insert mode, the text, Esc, `:wq`.
    func typeInVim(_ tmux: TUITmux, _ text: String) throws {
        // The editor's own screen: the file's name on its last line.
        try tmux.expectToSee("notes.txt")
        try tmux.keys("i")
        try tmux.type(text)
        try tmux.expectToSee(text)
        try tmux.keys("Escape")
        try tmux.type(":wq")
        try tmux.keys("Enter")
    }

    func expectSavedAndBack(_ tmux: TUITmux, _ id: String, _ text: String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.expectToSee("notes saved", sourceLocation: sourceLocation)
        try tmux.expectToSee("Backlog ·", sourceLocation: sourceLocation)
        #expect(try notes(id) == text, sourceLocation: sourceLocation)
        try tmux.keys("q")
        try tmux.expectToSee("exit=0", sourceLocation: sourceLocation)
    }

    @Test func viWhenEditorIsUnset() throws {
        let (tmux, id) = try start(editor: nil)
        try tmux.keys("N")
        try typeInVim(tmux, "Call back Tuesday")
        try expectSavedAndBack(tmux, id, "Call back Tuesday")
    }

    @Test func vimWithArgumentsInEditor() throws {
        let (tmux, id) = try start(editor: "vim -u NONE")
        try tmux.keys("N")
        try typeInVim(tmux, "Ask about the fee")
        try expectSavedAndBack(tmux, id, "Ask about the fee")
    }

    @Test func nano() throws {
        let (tmux, id) = try start(editor: "nano")
        try tmux.keys("N")
        try tmux.expectToSee("GNU nano")
        try tmux.type("Bring the statement")
        try tmux.expectToSee("Bring the statement")
        try tmux.keys("C-x")
        try tmux.expectToSee("Save modified buffer")
        try tmux.keys("y")
        try tmux.expectToSee("File Name to Write")
        try tmux.keys("Enter")
        try expectSavedAndBack(tmux, id, "Bring the statement")
    }

    /// A script with an argument that reads a line from the terminal. Ctrl-C
    /// while it reads ends the editor alone: nextup stays, nothing is saved.
    @Test func shellScriptEditorAndCtrlC() throws {
        let script = scratch.path("ask.sh")
        try "#!/bin/sh\nprintf 'Your note: '\nIFS= read -r line\nprintf '%s %s\\n' \"$1\" \"$line\" > \"$2\"\n"
            .write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let (tmux, id) = try start(editor: "\(script.path) Remember:")
        try tmux.keys("N")
        try tmux.expectToSee("Your note:")
        try tmux.keys("C-c")
        try tmux.expectToSee("notes not changed: the editor")
        try tmux.expectToSee("Call the bank")
        #expect(try notes(id) == nil)

        try tmux.keys("N")
        try tmux.expectToSee("Your note:")
        try tmux.type("the fee")
        try tmux.keys("Enter")
        try expectSavedAndBack(tmux, id, "Remember: the fee")
    }

    /// Notes over the limit are not saved, and not thrown away: the file
    /// stays and the status line names it.
    @Test func notesOverTheLimitAreKeptInTheirFile() throws {
        let script = scratch.path("long.sh")
        try "#!/bin/sh\nhead -c 100001 /dev/zero | tr '\\0' x > \"$1\"\n"
            .write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let (tmux, id) = try start(editor: script.path)
        try tmux.keys("N")
        try tmux.expectToSee("not saved: notes is longer than")
        let folders = try FileManager.default.contentsOfDirectory(atPath: temp.path)
        #expect(folders.count == 1)
        let kept = temp.appendingPathComponent(folders.first ?? "none").appendingPathComponent("notes.txt")
        try tmux.expectToSee("notes kept in \(kept.path)")
        #expect((try? String(contentsOf: kept, encoding: .utf8))?.count == 100_001)
        #expect(try notes(id) == nil)
        try tmux.keys("q")
        try tmux.expectToSee("exit=0")
    }
}
