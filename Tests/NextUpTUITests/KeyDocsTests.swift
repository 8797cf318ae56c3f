import Foundation
import Testing
@testable import NextUpTUI

/// The README's key table, the man page's KEYS section and the help overlay
/// list every action of the key map, with its default keys and its config
/// name: one is derived from the key map and compared with the others.
@Suite struct KeyDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `j down` for move-down.
    static func keys(_ action: Action) -> [String] { KeyMap.defaults.keys(for: action).map(\.name) }

    /// The README row of an action: `| `j` `down` | `move-down` | move down |`.
    static func readmeRow(_ action: Action) -> String {
        "| " + keys(action).map { "`\($0)`" }.joined(separator: " ") + " | `\(action.rawValue)` | \(action.summary) |"
    }

    /// The man page entry of an action.
    static func manEntry(_ action: Action) -> String {
        let summary = action.summary.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "-", with: "\\-")
        return ".TP\n" + keys(action).map { "\\fB\($0.replacingOccurrences(of: "-", with: "\\-"))\\fR" }.joined(separator: " ")
            + " (\(action.rawValue.replacingOccurrences(of: "-", with: "\\-")))\n" + summary
    }

    @Test func theReadmeListsEveryActionWithItsDefaultKeys() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex(of: "| keys | name in `[keys]` | what it does |"))
        let rows = Array(lines[(header + 2)...].prefix { $0.hasPrefix("|") })
        let expected = Action.allCases.map(Self.readmeRow)
        #expect(rows == expected, "README key table should be:\n\(expected.joined(separator: "\n"))")
    }

    @Test func theManPageListsEveryActionWithItsDefaultKeys() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("Resources/nextup.1"), encoding: .utf8)
        let section = page.components(separatedBy: ".SH KEYS\n").dropFirst().first?.components(separatedBy: "\n.SH ").first ?? ""
        let entries = section.components(separatedBy: "\n").drop { !$0.hasPrefix(".TP") }.joined(separator: "\n")
        let expected = Action.allCases.map(Self.manEntry).joined(separator: "\n")
        #expect(entries == expected, "man page KEYS should be:\n\(expected)")
    }

    @Test func theHelpOverlayListsEveryActionByNameWithTheBoundKeys() {
        var s = Fixture.state([])
        s.width = 100
        s.height = 40
        (s.keyMap, _) = KeyMap.defaults.applying(["quit": "Q"])
        s.showHelp = true
        let text = MainView.frame(s).text.joined(separator: "\n")
        for action in Action.allCases {
            #expect(text.contains(action.rawValue), "help names \(action.rawValue)")
        }
        #expect(text.contains("Q") && !text.contains(" q "), "help shows the keys actually bound")
    }

    @Test(arguments: [(80, 24), (100, 30)])
    func theHelpFitsWithoutACut(size: (Int, Int)) {
        var s = Fixture.state([], width: size.0, height: size.1)
        s.showHelp = true
        let text = MainView.frame(s).text
        #expect(!text.contains { $0.contains("…") }, "nothing cut:\n\(text.joined(separator: "\n"))")
        for action in Action.allCases { #expect(text.contains { $0.contains(" \(action.rawValue) ") }, "\(action.rawValue)") }
    }
}
