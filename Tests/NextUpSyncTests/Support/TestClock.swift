import NextUpCore
import Synchronization

/// A physical clock a test moves by hand; optionally offset from "true" time
/// (a machine whose clock is a day behind or ahead).
final class TestClock: PhysicalClock, Sendable {
    private let now: Mutex<Int64>
    private let skew: Mutex<Int64>
    /// How far this machine's clock is off "true" time.
    var offset: Int64 {
        get { skew.withLock { $0 } }
        set { skew.withLock { $0 = newValue } }
    }

    init(millis: Int64 = 1_700_000_000_000, offset: Int64 = 0) {
        now = Mutex(millis)
        skew = Mutex(offset)
    }

    func nowMillis() -> Int64 { now.withLock { $0 } + offset }

    /// Moves true time forward.
    func advance(_ millis: Int64) { now.withLock { $0 += millis } }
}

let oneDay: Int64 = 86_400_000
