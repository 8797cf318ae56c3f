import Testing
@testable import NextUpTUI

/// The footer names an action by the key a person types first: with
/// `[keys] quit = "q, Q"`, `q quit`.
@Suite struct FooterKeyTests {
    @Test(arguments: ["q, Q", "Q, q", "Q q"])
    func theFooterShowsTheLowerCaseKey(binding: String) {
        var s = Fixture.state([], width: 100, height: 30)
        s.keyMap = KeyMap.defaults.applying(["quit": binding]).map
        let footer = MainView.frame(s).text.joined(separator: "\n")
        #expect(footer.contains("q quit") && !footer.contains("Q quit"), "\(footer)")
    }

    @Test func aKeyOnlyInUpperCaseIsShownAsItIs() {
        var s = Fixture.state([], width: 100, height: 30)
        s.keyMap = KeyMap.defaults.applying(["quit": "Q"]).map
        #expect(MainView.frame(s).text.joined(separator: "\n").contains("Q quit"))
    }
}
