import Testing
@testable import NextUpTUI

@Suite struct KeyMapTests {
    @Test func defaultKeysOfTheDesign() {
        let map = KeyMap.defaults
        let expected: [(String, Action)] = [
            ("j", .moveDown), ("down", .moveDown), ("k", .moveUp), ("up", .moveUp), ("g", .top), ("G", .bottom),
            ("tab", .switchPane), ("a", .add), ("e", .editTitle), ("u", .cycleUrgency), ("i", .cycleImportance),
            ("d", .setDuration), ("c", .cycleCategory), ("C", .typeCategory), ("n", .toggleNextUp),
            ("J", .reorderDown), ("K", .reorderUp), ("x", .toggleDone), ("space", .toggleDone), ("D", .delete),
            ("z", .undo), ("/", .filter), ("s", .sort), ("r", .sync), ("?", .help), ("q", .quit),
        ]
        for (name, action) in expected {
            #expect(map.action(for: Key(name: name)!) == action, "\(name)")
        }
    }

    @Test func remappingReplacesAnActionsKeysAndTakesTheKeyFromItsOldAction() {
        let (map, problems) = KeyMap.defaults.applying(["quit": "Q", "move-down": "n, ctrl-n"])
        #expect(problems == ["toggle-next-up has no key left: [keys] gave its keys to other actions"])
        #expect(map.action(for: .char("Q")) == .quit)
        #expect(map.action(for: .char("q")) == nil)
        #expect(map.action(for: .char("n")) == .moveDown)
        #expect(map.action(for: .ctrl("n")) == .moveDown)
        #expect(map.action(for: .char("j")) == nil)
        #expect(map.keys(for: .toggleNextUp).isEmpty)
    }

    @Test func badBindingsAreReportedAndSkipped() {
        let (map, problems) = KeyMap.defaults.applying(["launch-rockets": "l", "quit": "hyper-q"])
        #expect(problems.count == 2)
        #expect(problems.contains { $0.contains("launch-rockets") })
        #expect(problems.contains { $0.contains("hyper-q") })
        #expect(map == KeyMap.defaults)
    }

    @Test(arguments: ["j", "J", "?", "/", "space", "tab", "backtab", "enter", "esc", "up", "pagedown", "ctrl-u", "f5", "home"])
    func keyNamesRoundTrip(name: String) throws {
        let key = try #require(Key(name: name))
        #expect(Key(name: key.name) == key)
    }

    @Test func nonsenseIsNotAKey() {
        for name in ["", "ctrl-", "ctrl-ab", "f13", "hyper-q", "\u{1B}"] { #expect(Key(name: name) == nil, "\(name)") }
    }
}

@Suite struct KeyClashTests {
    @Test func aKeyGivenToTwoActionsAndAnActionLeftWithoutKeysAreReported() {
        let (map, problems) = KeyMap.defaults.applying(["add": "Q", "quit": "Q"])
        #expect(problems.contains("key 'Q' is bound to both add and quit in [keys]; quit keeps it"))
        #expect(problems.contains("add has no key left: [keys] gave its keys to other actions"))
        #expect(map.action(for: .char("Q")) == .quit)
        #expect(KeyMap.defaults.applying(["quit": "Q", "add": "A"]).problems.isEmpty)
    }
}
