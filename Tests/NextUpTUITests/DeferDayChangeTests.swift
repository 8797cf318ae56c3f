import NextUpCore
import Testing
@testable import NextUpTUI

/// A deferred task appears by itself on its date, in a TUI left open
/// overnight: the lists are a function of `today` (Core's ``ListFilter``
/// leaves a deferred task out), and the tick that crosses midnight reloads them.
@Suite struct DeferDayChangeTests {
    static let day: Int64 = 86_400_000

    @Test func theTickThatCrossesMidnightReloadsAndTheDeferredTaskJoinsTheBacklog() throws {
        let midnight = (Fixture.now / Self.day + 1) * Self.day
        var deferred = Fixture.task("Renew passport")
        deferred.deferDate = DueDate(epochDay: midnight / Self.day)
        let other = Fixture.task("Today's work")
        let backend = MemoryBackend(tasks: [deferred, other])
        var s = Fixture.state([deferred, other])
        _ = s.send(.tick(nowMillis: midnight - 1_000))
        #expect(try backend.listIDs(s.query, nowMillis: s.nowMillis).backlog == [other.id])
        // Ticks within the day reload nothing by themselves.
        #expect(s.send(.tick(nowMillis: midnight - 500)).isEmpty)
        #expect(s.send(.tick(nowMillis: midnight + 500)) == [.reload])
        #expect(Set(try backend.listIDs(s.query, nowMillis: s.nowMillis).backlog) == [deferred.id, other.id])
        // `is:later` shows it only while it waits.
        let later = ListQuery(sort: .score, filter: try ListFilter.parse("is:later"), keepDone: [], today: DueDate(epochDay: midnight / Self.day - 1))
        #expect(try backend.listIDs(later, nowMillis: s.nowMillis).backlog == [deferred.id])
    }
}
