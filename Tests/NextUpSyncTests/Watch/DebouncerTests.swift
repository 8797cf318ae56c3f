import Testing
@testable import NextUpSync

@Suite struct DebouncerTests {
    @Test func nothingPendingNeverFires() {
        var debouncer = Debouncer()
        #expect(debouncer.deadline == nil)
        let fired = debouncer.fireIfDue(at: 1_000_000)
        #expect(!fired)
    }

    @Test func theFirstEventOfABurstFiresAtOnce() {
        var debouncer = Debouncer(quietMillis: 150, maximumDelayMillis: 1_000)
        debouncer.record(at: 500)
        #expect(debouncer.deadline == 500)
        let due = debouncer.fireIfDue(at: 500)
        let again = debouncer.fireIfDue(at: 10_000)
        #expect(due)
        #expect(!again, "once per event")
        #expect(!debouncer.isPending)
        // Quiet long enough since that signal: the next event begins a new burst.
        debouncer.record(at: 650)
        #expect(debouncer.deadline == 650)
    }

    @Test func laterEventsAreCoalescedUntilAQuietPeriodAfterTheLast() {
        var debouncer = Debouncer(quietMillis: 150, maximumDelayMillis: 1_000)
        debouncer.record(at: 0)
        let fired0 = debouncer.fireIfDue(at: 0)
        #expect(fired0)
        debouncer.record(at: 10)
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

    @Test func aStormFiresAtOnceThenByTheMaximumDelayThenAtItsEnd() {
        var debouncer = Debouncer(quietMillis: 150, maximumDelayMillis: 1_000)
        var fired: [Int64] = []
        // An event every 100 ms for 3.5 s: the quiet period never elapses.
        for t in stride(from: Int64(0), through: 3_500, by: 100) {
            debouncer.record(at: t)
            if debouncer.fireIfDue(at: t) { fired.append(t) }
        }
        for t in stride(from: Int64(3_510), through: 5_000, by: 10) where debouncer.fireIfDue(at: t) { fired.append(t) }
        #expect(fired == [0, 1_100, 2_200, 3_300, 3_650])
    }

    @Test func eventsOutOfOrderDoNotMoveTheDeadlineBack() {
        var debouncer = Debouncer(quietMillis: 150, maximumDelayMillis: 1_000)
        debouncer.record(at: 0)
        let fired0 = debouncer.fireIfDue(at: 0)
        #expect(fired0)
        debouncer.record(at: 100)
        debouncer.record(at: 50)
        #expect(debouncer.deadline == 250)
    }
}
