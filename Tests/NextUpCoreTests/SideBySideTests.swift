import Dispatch
import Testing
@testable import NextUpCore

/// Two pieces of work at once: both run, both results come back, the first
/// one's error is the one thrown, and they really run at the same time.
@Suite struct SideBySideTests {
    struct Failure: Error, Equatable { let which: Int }

    @Test func bothRunAndBothResultsComeBack() throws {
        let (a, b) = try SideBySide.run({ (0..<1_000).reduce(0, +) }, { "second" })
        #expect(a == 499_500 && b == "second")
    }

    @Test func theFirstOnesErrorIsThrownAndBothRanToTheEnd() {
        let ran = Ran()
        #expect(throws: Failure(which: 1)) {
            _ = try SideBySide.run({ () throws -> Int in ran.mark(1); throw Failure(which: 1) },
                                   { () throws -> Int in ran.mark(2); throw Failure(which: 2) })
        }
        #expect(ran.marks == [1, 2])
        #expect(throws: Failure(which: 2)) {
            _ = try SideBySide.run({ 1 }, { () throws -> Int in throw Failure(which: 2) })
        }
    }

    /// The first waits for the second's signal: done one after the other,
    /// it would wait out its whole (generous) limit and see nothing.
    @Test func theTwoRunAtOnce() throws {
        let signal = DispatchSemaphore(value: 0)
        let (sawSignal, _) = try SideBySide.run({ signal.wait(timeout: .now() + 30) == .success }, { signal.signal() })
        #expect(sawSignal)
    }

    /// A map in halves is the map, and fails where the map fails first.
    @Test func aMapInHalvesIsTheMap() throws {
        for count in [0, 1, 2, 999, 1_000, 1_001, 4_567] {
            let items = Array(0..<count)
            #expect(try SideBySide.map(items, leaving: 0) { $0 * 2 + 1 } == items.map { $0 * 2 + 1 })
        }
        let items = Array(0..<3_000)
        for failing in [[10, 2_900], [1_600, 2_900], [2_999]] {
            #expect(throws: Failure(which: failing[0])) {
                _ = try SideBySide.map(items, leaving: 0) { i in if failing.contains(i) { throw Failure(which: i) }; return i }
            }
        }
    }

    final class Ran: @unchecked Sendable {
        private let lock = DispatchSemaphore(value: 1)
        private var set: Set<Int> = []
        func mark(_ n: Int) { lock.wait(); set.insert(n); lock.signal() }
        var marks: [Int] { lock.wait(); defer { lock.signal() }; return set.sorted() }
    }
}
