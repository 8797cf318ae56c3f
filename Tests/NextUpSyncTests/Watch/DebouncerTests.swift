import Testing
@testable import NextUpSync

@Suite struct DebouncerTests {
    @Test func nothingPendingNeverFires() {
        var debouncer = Debouncer()
        #expect(debouncer.deadline == nil)
        let fired = debouncer.fireIfDue(at: 1_000_000)
        #expect(!fired)
    }

    @Test func firesAQuietPeriodAfterTheLastEvent() {
        var debouncer = Debouncer(quietMillis: 150, maximumDelayMillis: 1_000)
        debouncer.record(at: 0)
        debouncer.record(at: 100)
        #expect(debouncer.deadline == 250)
        let early = debouncer.fireIfDue(at: 249)
        let due = debouncer.fireIfDue(at: 250)
        let again = debouncer.fireIfDue(at: 10_000)
        #expect(!early)
        #expect(due)
        #expect(!again, "once per burst")
        #expect(!debouncer.isPending)
    }

    @Test func aStormStillFiresByTheMaximumDelay() {
        var debouncer = Debouncer(quietMillis: 150, maximumDelayMillis: 1_000)
        var fired: [Int64] = []
        // An event every 100 ms for 3.5 s: the quiet period never elapses.
        for t in stride(from: Int64(0), through: 3_500, by: 100) {
            if debouncer.fireIfDue(at: t) { fired.append(t) }
            debouncer.record(at: t)
        }
        // Each firing ends a burst; the next event starts a new one.
        #expect(fired == [1_000, 2_000, 3_000])
    }

    @Test func eventsOutOfOrderDoNotMoveTheDeadlineBack() {
        var debouncer = Debouncer(quietMillis: 150, maximumDelayMillis: 1_000)
        debouncer.record(at: 500)
        debouncer.record(at: 400)
        #expect(debouncer.deadline == 650)
    }
}
