import NextUpCore
import Testing
@testable import NextUpTUI

/// "While you were away" as a pure function: it covers the bottom of the
/// lists (which stay drawn), says "and N more" past a few lines, and the
/// first key closes it and does nothing else.
@Suite struct AwayTests {
    let a = Fixture.task("Alpha")
    let b = Fixture.task("Bravo")

    func summary(_ count: Int) -> AwaySummary {
        AwaySummary(since: Fixture.now - 3_600_000,
                    lines: (0..<count).map { AwaySummary.Line(machine: "desktop", title: "Alpha", change: "title: “A\($0)” → “Alpha”") },
                    tasks: 1)
    }

    @Test func theFirstKeyClosesItAndDoesNothingElse() {
        var s = Fixture.state([a, b])
        _ = s.send(.awayLoaded(summary(2)))
        #expect(s.away != nil)
        #expect(s.send(Fixture.keys("x")) == [])
        #expect(s.away == nil)
        #expect(s.prompt == nil && s.message == nil)
        // The next x is an x again.
        #expect(s.send(Fixture.keys("x")) != [])
        // Nothing to say: no overlay.
        _ = s.send(.awayLoaded(summary(0)))
        #expect(s.away == nil)
    }

    @Test func itCoversTheBottomOfTheListsAndCountsTheRest() {
        var s = Fixture.state([a, b])
        _ = s.send(.awayLoaded(summary(9)))
        let text = MainView.frame(s).text
        #expect(text.contains { $0.contains("Alpha") && !$0.contains("desktop") }, "the list stays drawn")
        #expect(text.contains { $0.contains("While you were away") && $0.contains("9 changes on 1 task") })
        #expect(text.filter { $0.contains("desktop") }.count == AwayView.mostLines - 1)
        #expect(text.contains { $0.contains("and 4 more") && $0.contains("nextup changes --since") })
        #expect(text.count == s.height)
    }
}
