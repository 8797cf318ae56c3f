import Foundation
import NextUpCore
import Testing

/// The real `nextup` TUI in tmux: typed at with `send-keys`, read with
/// `capture-pane`, its effects checked with `nextup show --json`.
@Suite(.serialized) struct TUITests {
    let scratch = Scratch()
    var storeFolder: URL { scratch.path("store") }
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": storeFolder.path]) }
    var bin: String { NextupProcess.binary.path }

    func add(_ args: String...) throws -> String {
        let r = try cli.run(["add"] + args)
        #expect(r.status == 0, "\(r)")
        return r.out
    }

    func show(_ id: String) throws -> [String: Any] {
        let r = try cli.run(["show", id, "--json"])
        return (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any] ?? [:]
    }

    /// Waits until `nextup show ID --json` has `field` equal to `value`.
    func expectStore(_ id: String, _ field: String, _ value: Any?, _ comment: Comment? = nil) throws {
        func matches() throws -> Bool {
            let v = try show(id)[field]
            switch (v, value) {
            case (is NSNull, nil), (nil, nil): return true
            case let (a as String, b as String): return a == b
            case let (a as Bool, b as Bool): return a == b
            case let (a as Int, b as Int): return a == b
            default: return false
            }
        }
        let ok = try eventually { try matches() }
        let now = String(describing: try show(id)[field])
        #expect(ok, "\(field) of \(id) should become \(String(describing: value)), store has \(now) \(comment.map { "\($0)" } ?? "")")
    }

    func open(_ tmux: TUITmux, extra: String = "") throws {
        try tmux.run("\"\(bin)\"\(extra)")
        #expect(try tmux.waitFor("Backlog ·"), "the TUI should open")
    }

    @Test func everyEditingKeyChangesTheStore() throws {
        let id = try add("Triage me")
        let tmux = try TUITmux(environment: cli.environment)
        try open(tmux)
        try tmux.waitFor("Triage me")
        try tmux.keys("u"); try expectStore(id, "urgency", "urgent")
        try tmux.keys("u"); try expectStore(id, "urgency", "not-urgent")
        try tmux.keys("i"); try expectStore(id, "importance", 1)
        try tmux.keys("i"); try expectStore(id, "importance", 2)
        try tmux.keys("c"); try expectStore(id, "category", "Essentials")
        try tmux.keys("c"); try expectStore(id, "category", "Deep Work")
        try tmux.keys("d"); try tmux.type("1h30m"); try tmux.keys("Enter")
        try expectStore(id, "duration", 90)
        try tmux.keys("C", "C-u"); try tmux.type("Garden"); try tmux.keys("Enter")
        try expectStore(id, "category", "Garden")
        try tmux.keys("e", "C-u"); try tmux.type("Triaged task"); try tmux.keys("Left", "Left", "BSpace", "Enter")
        try expectStore(id, "title", "Triaged tsk")
        try tmux.keys("z"); try expectStore(id, "title", "Triage me", "z undoes the title")
        try tmux.keys("n"); try expectStore(id, "next_up", true)
        try tmux.keys("Tab", "x"); try expectStore(id, "done", true)
        try tmux.keys("Space"); try expectStore(id, "done", false)
        try tmux.keys("D"); try expectStore(id, "deleted", true)
        try tmux.keys("z"); try expectStore(id, "deleted", false)
        try tmux.keys("a"); try tmux.type("Typed in the TUI"); try tmux.keys("Enter")
        let added = try eventually { try cli.run(["list", "--json"]).stdout.contains("Typed in the TUI") }
        #expect(added)
        try tmux.keys("q")
    }

    @Test func reorderingNextUpWithJAndK() throws {
        let first = try add("First", "--next")
        let second = try add("Second", "--next")
        let third = try add("Third", "--next")
        func order() throws -> [String] {
            let data = Data(try cli.run(["next", "--json"]).stdout.utf8)
            return ((try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        let tmux = try TUITmux(environment: cli.environment)
        try open(tmux)
        try tmux.keys("Tab", "J")
        #expect(try eventually { try order() == [second, first, third] })
        try tmux.keys("J")
        #expect(try eventually { try order() == [second, third, first] })
        try tmux.keys("K", "K")
        #expect(try eventually { try order() == [first, second, third] })
        try tmux.keys("q")
    }

    @Test func aTaskAddedFromAnotherShellAppearsWithoutAKeyPress() throws {
        _ = try add("Already there")
        let tmux = try TUITmux(environment: cli.environment)
        try open(tmux)
        _ = try add("Added from another shell")
        let seen = try tmux.waitForScreen { $0.contains { $0.contains("Added from another shell") } }
        #expect(seen.ok, "\(seen.screen.joined(separator: "\n"))")
        try tmux.keys("q")
    }

    @Test func aTaskAddedOnASecondReplicaAppearsAfterSync() throws {
        let peer = scratch.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let here = try TUITmux(environment: cli.environment)
        let there = try TUITmux(environment: cli.environment)
        try open(here, extra: " --peer \"\(peer.path)\"")
        try open(there, extra: " --store \"\(scratch.path("laptop").path)\" --peer \"\(peer.path)\"")
        try there.keys("a"); try there.type("Added on the laptop"); try there.keys("Enter")
        let seen = try here.waitForScreen { $0.contains { $0.contains("Added on the laptop") } }
        #expect(seen.ok, "\(seen.screen.joined(separator: "\n"))")
        #expect(try here.waitFor("peer"), "the status bar reports the peer")
        try here.keys("q"); try there.keys("q")
    }

    @Test func aTaskThatVdirsyncerWritesIntoTheVdirAppearsWithoutAKeyPress() throws {
        let vdir = scratch.path("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let id = try add("Rename me on the phone", "--urgency", "urgent")
        let tmux = try TUITmux(environment: cli.environment)
        try open(tmux, extra: " --vdir \"\(vdir.path)\"")
        let file = vdir.appendingPathComponent("\(id).ics")
        #expect(eventually { FileManager.default.fileExists(atPath: file.path) }, "the TUI's background bridge writes the file")
        #expect(try tmux.waitFor("vdir"), "the status bar names the vdir")
        // As vdirsyncer writes: a temporary file, renamed into place.
        func land(_ text: String, _ name: String) throws {
            let temp = vdir.appendingPathComponent(".\(name).tmp")
            try Data(text.utf8).write(to: temp)
            _ = rename(temp.path, vdir.appendingPathComponent(name).path)
        }
        try land("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:phone-tui-1\r\nSUMMARY:Bought on the phone\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "phone-tui-1.ics")
        let seen = try tmux.waitForScreen { $0.contains { $0.contains("Bought on the phone") } }
        #expect(seen.ok, "\(seen.screen.joined(separator: "\n"))")
        // The phone renames a task, dropping the X- properties: the new title shows, the urgency stays.
        let ours = try String(contentsOf: file, encoding: .utf8)
        let renamed = ours.components(separatedBy: "\r\n").filter { !$0.hasPrefix("X-") }
            .map { $0.hasPrefix("SUMMARY:") ? "SUMMARY:Renamed on the phone" : $0 }.joined(separator: "\r\n")
        try land(renamed, "\(id).ics")
        let renamedSeen = try tmux.waitForScreen { $0.contains { $0.contains("Renamed on the phone") } }
        #expect(renamedSeen.ok, "\(renamedSeen.screen.joined(separator: "\n"))")
        try expectStore(id, "urgency", "urgent")
        try tmux.keys("q")
    }

    @Test func aMissingVdirOpensTheScreenAndTheStatusBarSaysSo() throws {
        _ = try add("Still here")
        let tmux = try TUITmux(environment: cli.environment)
        try open(tmux, extra: " --vdir \"\(scratch.path("unmounted").path)\"")
        #expect(try tmux.waitFor("does not exist"), "the status bar names the missing vdir")
        #expect(try tmux.waitFor("Still here"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("unmounted").path))
        try tmux.keys("q")
    }

    @Test func theStatusBarSaysWhenThePeerFolderLooksUnmounted() throws {
        let peer = scratch.path("share")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        #expect(try cli.run(["--peer", peer.path, "sync"]).status == 0)
        // Unmounted: the mount point is an empty folder.
        try FileManager.default.removeItem(at: peer)
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let tmux = try TUITmux(environment: cli.environment)
        try open(tmux, extra: " --peer \"\(peer.path)\"")
        let seen = try tmux.waitForScreen { $0.contains { $0.contains("sync: the peer folder looks unmounted or replaced") } }
        #expect(seen.ok, "\(seen.screen.joined(separator: "\n"))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: peer.path).isEmpty)
        try tmux.keys("q")
    }

    @Test func theSelectionStaysOnItsTaskWhenTheListResortsUnderIt() throws {
        _ = try add("Zulu", "--importance", "3")
        _ = try add("Yankee", "--importance", "2")
        let xray = try add("Xray", "--importance", "1")
        let tmux = try TUITmux(environment: cli.environment)
        try open(tmux)
        try tmux.keys("G")
        #expect(try tmux.waitFor("▸ Xray"))
        #expect(try cli.run(["edit", xray, "--importance", "3", "--urgency", "urgent"]).status == 0)
        let moved = try tmux.waitForScreen { rows in
            guard let header = rows.firstIndex(where: { $0.contains("Backlog ·") }), header + 1 < rows.count else { return false }
            return rows[header + 1].hasPrefix("▸ Xray")
        }
        #expect(moved.ok, "Xray moves to the top with the selection on it: \(moved.screen.joined(separator: "\n"))")
        try tmux.keys("u")
        try expectStore(xray, "urgency", "not-urgent", "the key acts on the task that moved, not on the row")
        try tmux.keys("q")
    }

    @Test func resizeTo60x20AndBackAlsoInsideAPrompt() throws {
        _ = try add("A task with a fairly long title to see truncation happen", "--due", "2030-01-02")
        let tmux = try TUITmux(environment: cli.environment)
        try open(tmux)
        #expect(try tmux.waitFor("2030-01-02"))
        try tmux.keys("a"); try tmux.type("Half typed")
        try tmux.resize(width: 60, height: 20)
        let small = try tmux.waitForScreen { rows in rows.contains { $0.contains("Backlog ·") } && !rows.contains { $0.contains("2030-01-02") } }
        #expect(small.ok, "\(small.screen.joined(separator: "\n"))")
        #expect(small.screen.allSatisfy { TerminalWidth.width(of: $0) <= 60 })
        try tmux.type(" then finished")
        try tmux.resize(width: 100, height: 30)
        #expect(try tmux.waitFor("2030-01-02"))
        try tmux.keys("Enter")
        #expect(try tmux.waitFor("Half typed then finished"))
        try tmux.resize(width: 30, height: 8)
        #expect(try tmux.waitFor("too small"))
        try tmux.resize(width: 100, height: 30)
        #expect(try tmux.waitFor("Half typed then finished"))
        try tmux.keys("q")
    }

    @Test func wideCharactersAndEmojiStayAligned() throws {
        _ = try add("日本語のタスク 🎉", "--urgency", "urgent")
        _ = try add("plain ascii", "--urgency", "urgent")
        let tmux = try TUITmux(environment: cli.environment)
        try open(tmux)
        let shown = try tmux.waitForScreen { rows in rows.contains { $0.contains("日本語のタスク 🎉") } && rows.contains { $0.contains("plain ascii") } }
        #expect(shown.ok)
        let columns = shown.screen.filter { $0.contains("日本語") || $0.contains("plain ascii") }.map { row -> Int in
            TerminalWidth.width(of: String(row[..<(row.range(of: "yes")?.lowerBound ?? row.endIndex)]))
        }
        #expect(columns.count == 2 && columns[0] == columns[1], "\(shown.screen.joined(separator: "\n"))")
        try tmux.keys("q")
    }

    @Test func escapeSequencesInATitleAreShownNotObeyed() throws {
        _ = try add("Evil \u{1B}[2J\u{1B}]2;pwned\u{07} title")
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("echo BEFORE-THE-TUI")
        try open(tmux)
        #expect(try tmux.waitFor("Evil ␛[2J␛]2;pwned␇ title"))
        #expect(try tmux.display("#{pane_title}") != "pwned")
        try tmux.keys("q")
        #expect(try tmux.waitFor("BEFORE-THE-TUI"), "the screen was not cleared behind the TUI")
    }

    @Test func quittingLeavesACleanShellOnQAndOnSIGTERM() throws {
        _ = try add("Something")
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("echo BEFORE-MARK")
        try open(tmux)
        try tmux.keys("q")
        #expect(try tmux.waitForScreen { !$0.contains { $0.contains("Backlog ·") } }.ok, "q closes the TUI")
        try tmux.run("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' + ; echo END")
        let clean = try tmux.waitForScreen { $0.contains { $0.contains("icanon+echo+END") } }
        #expect(clean.ok, "\(clean.screen.joined(separator: "\n"))")
        #expect(clean.screen.contains { $0.contains("BEFORE-MARK") })
        #expect(!clean.screen.contains { $0.contains("Backlog ·") })

        try tmux.run("clear; sh -c 'echo PID=$$ > \"\(scratch.path("pid").path)\"; exec \"\(bin)\"'; echo EXIT=$?")
        #expect(try tmux.waitFor("Backlog ·"))
        let pid = try String(contentsOf: scratch.path("pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "PID=", with: "")
        kill(pid_t(pid)!, SIGTERM)
        #expect(try tmux.waitFor("EXIT="), "SIGTERM ends the TUI")
        try tmux.run("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' + ; echo DONE")
        let after = try tmux.waitForScreen { $0.contains { $0.contains("icanon+echo+DONE") } }
        #expect(after.ok, "\(after.screen.joined(separator: "\n"))")
    }

    /// Foreground/background colour parameters (30–37, 40–47, 90–97, 100–107,
    /// 38/48 extended) in the SGR sequences of a `capture-pane -e` dump.
    static func colourParameters(_ dump: String) -> [Int] {
        var found: [Int] = []
        var rest = Substring(dump)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "m") else { break }
            let params = rest[..<end]
            if params.allSatisfy({ $0.isNumber || $0 == ";" }) {
                for p in params.split(separator: ";").compactMap({ Int($0) })
                where (30...37).contains(p) || (40...47).contains(p) || (90...97).contains(p) || (100...107).contains(p) || p == 38 || p == 48 {
                    found.append(p)
                }
            }
            rest = rest[end...]
        }
        return found
    }

    @Test func noColorIsHonoured() throws {
        _ = try add("Colourful?", "--urgency", "urgent")
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("env -u NO_COLOR \"\(bin)\"")
        #expect(try tmux.waitFor("Colourful?"))
        let coloured = try tmux.tmux(["capture-pane", "-p", "-e", "-t", "main"])
        #expect(!Self.colourParameters(coloured).isEmpty, "without NO_COLOR the screen has colours")
        try tmux.keys("q")
        #expect(try tmux.waitForScreen { !$0.contains { $0.contains("Backlog ·") } }.ok)
        try tmux.run("clear; NO_COLOR=1 \"\(bin)\"")
        #expect(try tmux.waitFor("Colourful?"))
        let plain = try tmux.tmux(["capture-pane", "-p", "-e", "-t", "main"])
        #expect(Self.colourParameters(plain).isEmpty, "NO_COLOR: attributes only")
        #expect(plain.contains("\u{1B}[") , "bold/reverse still mark the selection")
        try tmux.keys("q")
    }

    @Test func keysAreRemappedFromTheConfigFile() throws {
        let id = try add("Remapped")
        let config = scratch.path("config.toml")
        try "[keys]\nquit = \"Q\"\ncycle-urgency = \"!\"\n".write(to: config, atomically: true, encoding: .utf8)
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("NEXTUP_CONFIG=\"\(config.path)\" \"\(bin)\"")
        #expect(try tmux.waitFor("Remapped"))
        try tmux.keys("!")
        try expectStore(id, "urgency", "urgent")
        try tmux.keys("q", "u")
        #expect(try tmux.waitFor("does nothing here"), "the old keys are free")
        try expectStore(id, "urgency", "urgent")
        try tmux.keys("?")
        #expect(try tmux.waitFor("quit"))
        try tmux.keys("Escape", "Q")
        #expect(try tmux.waitForScreen { !$0.contains { $0.contains("Backlog ·") } }.ok, "Q quits")
    }
}
