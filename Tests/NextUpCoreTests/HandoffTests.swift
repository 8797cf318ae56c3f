import Dispatch
import Testing
@testable import NextUpCore

/// Items made on two threads and used in order on the caller's.
@Suite struct HandoffTests {
    struct Failure: Error, Equatable { let at: Int }

    @Test(arguments: [1, 7, 256, 5_000])
    func everyItemIsUsedInOrder(run: Int) throws {
        var used: [Int] = []
        try Handoff.run(count: 1_000, run: run, make: { $0 * 3 }, use: { used.append($0) })
        #expect(used == (0..<1_000).map { $0 * 3 })
        try Handoff.run(count: 0, run: run, make: { (_: Int) -> Int in Issue.record("made"); return 0 }, use: { _ in Issue.record("used") })
    }

    @Test func aFailedMakeThrowsAfterEveryItemBeforeItIsUsed() {
        var used: [Int] = []
        #expect(throws: Failure(at: 613)) {
            try Handoff.run(count: 1_000, run: 100, make: { i in if i == 613 { throw Failure(at: i) }; return i }, use: { used.append($0) })
        }
        #expect(used == Array(0..<613))
    }

    /// A failed use stops the making: of 100,000 items, no more than the
    /// runs in flight are made after it.
    @Test func aFailedUseStopsTheMaking() {
        let made = Counter()
        #expect(throws: Failure(at: 5)) {
            try Handoff.run(count: 100_000, run: 10, make: { i in made.add(); return i }, use: { i in if i == 5 { throw Failure(at: i) } })
        }
        #expect(made.value < 100)
    }

    /// Of several failures, the first in order is the one thrown, whichever
    /// thread met which first.
    @Test func theFirstFailureInOrderIsThrown() {
        var used: [Int] = []
        #expect(throws: Failure(at: 305)) {
            try Handoff.run(count: 1_000, run: 100, make: { i in if i == 305 || i == 710 { throw Failure(at: i) }; return i }, use: { used.append($0) })
        }
        #expect(used == Array(0..<305))
    }

    /// Two items are made at once, on two threads: each one's making waits
    /// for the other's to start. Made one after the other, the first would
    /// wait out its whole (generous) limit.
    @Test func twoThreadsMakeAtOnce() throws {
        let started = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        var sawTheOther: [Bool] = []
        try Handoff.run(count: 2, run: 1, make: { i in
            started[i].signal()
            return started[1 - i].wait(timeout: .now() + 30) == .success
        }, use: { sawTheOther.append($0) })
        #expect(sawTheOther == [true, true])
    }

    /// The items are used while later ones are still being made: item 999
    /// is made only once item 0 is used (one after the other, all made and
    /// then all used, its making would wait out its whole limit).
    @Test func makingAndUsingRunAtOnce() throws {
        let firstUsed = DispatchSemaphore(value: 0)
        var sawIt: [Bool] = []
        try Handoff.run(count: 1_000, run: 1, make: { i in i != 999 || firstUsed.wait(timeout: .now() + 30) == .success },
                        use: { saw in if sawIt.isEmpty { firstUsed.signal() }; sawIt.append(saw) })
        #expect(sawIt.count == 1_000 && !sawIt.contains(false))
    }

    final class Counter: @unchecked Sendable {
        private let lock = DispatchSemaphore(value: 1)
        private var count = 0
        func add() { lock.wait(); count += 1; lock.signal() }
        var value: Int { lock.wait(); defer { lock.signal() }; return count }
    }
}
