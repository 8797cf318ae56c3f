import Testing
import NextUpCore
@testable import NextUpTUI

@Suite struct ViewTests {
    static let sizes = [(80, 24), (60, 20), (100, 30), (40, 10), (132, 50)]

    func sample() -> [TaskItem] {
        [Fixture.task("Plain task", urgency: .urgent, importance: .high, minutes: 90, category: "Deep Work"),
         Fixture.task("日本語のタスク 🎉 with emoji 👩‍💻 and more words to cut"),
         Fixture.task("Evil \u{1B}[2J\u{1B}]0;pwned\u{7}\r\n title", nextUp: "a"),
         Fixture.task("Done one", nextUp: "b", done: true)]
    }

    @Test(arguments: sizes)
    func everyLineIsExactlyTheScreenWidth(width: Int, height: Int) {
        var s = Fixture.state(sample(), width: width, height: height)
        for extra in [[], Fixture.keys("?"), [Event.key(.escape)] + Fixture.keys("a日本"), Fixture.keys("jjx")] {
            _ = s.send(extra)
            let frame = MainView.frame(s)
            #expect(frame.lines.count == height)
            for line in frame.lines {
                #expect(TerminalWidth.width(of: line.text) == width, "\(line.text)")
            }
        }
    }

    @Test func controlCharactersNeverReachTheScreen() {
        var s = Fixture.state(sample())
        _ = s.send(Fixture.keys("?"))
        for frame in [MainView.frame(Fixture.state(sample())), MainView.frame(s)] {
            for line in frame.text {
                #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            }
        }
        let text = MainView.frame(Fixture.state(sample())).text.joined(separator: "\n")
        #expect(text.contains("Evil ␛[2J"))
    }

    @Test func unsetAttributesShowAsQuestionMarks() {
        let s = Fixture.state([Fixture.task("Nothing set")])
        let row = MainView.frame(s).text.first { $0.contains("Nothing set") }!
        let cells = row.split(separator: " ").suffix(4)
        #expect(cells == ["?", "?", "?", "?"])
        let full = MainView.frame(Fixture.state([sample()[0]])).text.first { $0.contains("Plain task") }!
        #expect(full.contains("yes") && full.contains(" 3 ") && full.contains("1h30m") && full.contains("Deep Work"))
        #expect(!full.contains("?"))
    }

    @Test func wideTitlesKeepTheColumnsAligned() {
        let s = Fixture.state([Fixture.task("日本語 🎉", urgency: .urgent), Fixture.task("ascii", urgency: .urgent)])
        let rows = MainView.frame(s).text.filter { $0.contains("yes") }
        #expect(rows.count == 2)
        let columns = rows.map { row -> Int in
            let prefix = row[..<row.range(of: "yes")!.lowerBound]
            return TerminalWidth.width(of: String(prefix))
        }
        #expect(columns[0] == columns[1])
    }

    @Test func tooSmallSaysSoPolitely() {
        let s = Fixture.state(sample(), width: 30, height: 8)
        let text = MainView.frame(s).text.joined(separator: "\n")
        #expect(text.contains("too small"))
        #expect(MainView.frame(s).lines.count == 8)
    }

    @Test func statusBarWordsForTheSyncState() {
        let now = Fixture.now
        #expect(StatusView.syncText(SyncDisplay(enabled: true, lastSuccessMillis: now - 4_000, peers: 2), nowMillis: now).0 == "synced 4s ago · 2 peers")
        #expect(StatusView.syncText(SyncDisplay(enabled: true, isSyncing: true, peers: 1), nowMillis: now).0 == "syncing… · 1 peer")
        let missing = StatusView.syncText(SyncDisplay(enabled: true, problem: "peer folder missing"), nowMillis: now)
        #expect(missing.0 == "sync: peer folder missing" && missing.1)
        #expect(StatusView.syncText(.off, nowMillis: now).0.contains("local only"))
        var s = Fixture.state(sample())
        s.sync = SyncDisplay(enabled: true, lastSuccessMillis: now - 4_000, peers: 2)
        #expect(MainView.frame(s).text.last!.contains("synced 4s ago · 2 peers"))
    }

    @Test func helpListsTheCurrentKeyMap() {
        var s = Fixture.state(sample(), width: 100, height: 30)
        s.keyMap = KeyMap.defaults.applying(["quit": "Q"]).map
        _ = s.send(Fixture.keys("?"))
        let text = MainView.frame(s).text.joined(separator: "\n")
        #expect(text.contains("Q") && text.contains("quit"))
        #expect(text.contains("cycle") == false || text.contains("urgency"))
    }

    @Test func promptCursorSitsAfterWideCharacters() {
        var s = Fixture.state(sample())
        _ = s.send(Fixture.keys("a日本x"))
        _ = s.send(.key(.left))
        let frame = MainView.frame(s)
        let label = TerminalWidth.width(of: s.prompt!.label)
        #expect(frame.cursor?.row == 22)
        #expect(frame.cursor?.col == label + 4)
    }

    @Test func aLongPromptScrollsToKeepTheCursorVisible() {
        var s = Fixture.state(sample(), width: 40, height: 10)
        _ = s.send(Fixture.keys("a" + String(repeating: "word ", count: 30) + "END"))
        let frame = MainView.frame(s)
        #expect(frame.text[8].contains("END"))
        #expect(frame.cursor!.col < 40)
    }

    @Test func onlyVisibleRowsAreNeeded() {
        let ids = (0..<100_000).map { _ in TaskID.make() }
        var s = AppState(width: 80, height: 24, nowMillis: Fixture.now)
        let shown = ids.prefix(30).map { id -> TaskItem in var t = TaskItem(id: id); t.title = "row \(id.short)"; return t }
        _ = Reducer.reduce(&s, .reloaded(Listing(nextUp: [], backlog: ids, rows: shown), external: false))
        #expect(s.visibleIDs(margin: 3).count <= 30)
        let text = MainView.frame(s).text.joined(separator: "\n")
        #expect(text.contains("Backlog · 100000"))
        #expect(text.contains("row \(ids[0].short)"))
    }
}
