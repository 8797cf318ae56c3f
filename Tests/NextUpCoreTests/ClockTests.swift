import Testing
@testable import NextUpCore

@Suite struct ClockTests {
    let a = ReplicaID("00000000-0000-4000-8000-00000000000a")!
    let b = ReplicaID("00000000-0000-4000-8000-00000000000b")!

    @Test func tickFollowsPhysicalTimeWhenItMovesForward() {
        var clock = HybridClock()
        let t1 = clock.tick(now: 1_000)
        let t2 = clock.tick(now: 2_000)
        #expect(t1 == HybridTimestamp(millis: 1_000))
        #expect(t2 == HybridTimestamp(millis: 2_000))
    }

    @Test func tickMovesForwardWhenPhysicalTimeStandsStillOrGoesBack() {
        var clock = HybridClock()
        let t1 = clock.tick(now: 5_000)
        let t2 = clock.tick(now: 5_000)
        let t3 = clock.tick(now: 1_000)  // the wall clock jumped back
        #expect(t1 < t2 && t2 < t3)
        #expect(t3.millis == 5_000 && t3.counter == 2)
    }

    @Test func anEditAfterSeeingARemoteValueWinsEvenWithAClockADayBehind() {
        let day: Int64 = 86_400_000
        let remote = Version(timestamp: HybridTimestamp(millis: 10 * day), replica: b)
        var clock = HybridClock()
        clock.observe(remote.timestamp)
        let local = Version(timestamp: clock.tick(now: 9 * day), replica: a)
        #expect(local > remote)
    }

    @Test func counterOverflowCarriesIntoTheNextMillisecond() {
        var clock = HybridClock(last: HybridTimestamp(millis: 7, counter: 0xFFFF))
        let t = clock.tick(now: 7)
        #expect(t.millis == 8 && t.counter == 0)
    }

    @Test func skewIsReportedOnlyBeyondTheTolerance() {
        #expect(HybridClock.skew(of: HybridTimestamp(millis: 100_000), now: 50_000) == nil)
        #expect(HybridClock.skew(of: HybridTimestamp(millis: 1_000_000), now: 50_000) == 950_000)
    }

    @Test func versionsOrderByTimestampThenReplica() {
        let t = HybridTimestamp(millis: 42)
        #expect(Version(timestamp: t, replica: a) < Version(timestamp: t, replica: b))
        #expect(Version(timestamp: t.successor, replica: a) > Version(timestamp: t, replica: b))
    }

    @Test func versionEncodingRoundTripsAndSortsLikeVersions() {
        let v1 = Version(timestamp: HybridTimestamp(millis: 9, counter: 3), replica: b)
        let v2 = Version(timestamp: HybridTimestamp(millis: 1_700_000_000_000), replica: a)
        #expect(Version(encoded: v1.encoded) == v1)
        #expect(Version(encoded: v2.encoded) == v2)
        #expect((v1.encoded < v2.encoded) == (v1 < v2))
        #expect(Version(encoded: "nonsense") == nil)
        #expect(Version(encoded: "0000000000000001@not-a-uuid") == nil)
    }
}

/// Clock arithmetic never traps, and the sane future is one year (issue 10).
@Suite struct ClockBoundsTests {
    let now: Int64 = 1_700_000_000_000

    @Test func theGreatestTimestampIsItsOwnSuccessorAndTickNeverTraps() {
        #expect(HybridTimestamp.greatest.successor == .greatest)
        var clock = HybridClock(last: .greatest)
        #expect(clock.tick(now: now) == .greatest)
        clock.observe(HybridTimestamp(rawValue: Int64.max - 1))
        #expect(clock.tick(now: Int64.max) == .greatest)
    }

    @Test func physicalTimesBeyondWhatATimestampHoldsAreClamped() {
        #expect(HybridTimestamp(millis: Int64.max).millis == HybridTimestamp.maxMillis)
        #expect(HybridTimestamp(millis: HybridTimestamp.maxMillis + 1) == HybridTimestamp(millis: HybridTimestamp.maxMillis))
    }

    @Test func theSaneFutureEndsOneYearAheadOfTheLocalClock() {
        #expect(!HybridClock.isBeyondSaneFuture(HybridTimestamp(millis: now + 365 * 86_400_000), now: now))
        #expect(!HybridClock.isBeyondSaneFuture(HybridTimestamp(millis: now + HybridClock.maxAhead, counter: 0xFFFF), now: now))
        #expect(HybridClock.isBeyondSaneFuture(HybridTimestamp(millis: now + HybridClock.maxAhead + 1), now: now))
        #expect(HybridClock.isBeyondSaneFuture(.greatest, now: now))
        #expect(!HybridClock.isBeyondSaneFuture(.greatest, now: Int64.max))
    }

    @Test func skewNeverTrapsOnExtremeValues() {
        #expect(HybridClock.skew(of: .greatest, now: Int64.min) == Int64.max)
        #expect(HybridClock.skew(of: .zero, now: Int64.max) == nil)
        #expect(HybridClock.skew(of: .greatest, now: now) == HybridTimestamp.maxMillis - now)
    }
}
