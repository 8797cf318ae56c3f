import Glibc

/// Time for timers (debounce periods, poll intervals), in milliseconds from an
/// arbitrary start; never goes backwards. Injected into ``ChangeWatcher`` (and
/// through it ``SyncEngine``) so tests drive time instead of sleeping.
public protocol MonotonicClock: Sendable {
    func monotonicMillis() -> Int64
}

/// The machine's monotonic clock (`CLOCK_MONOTONIC`).
public struct SystemMonotonicClock: MonotonicClock {
    public init() {}

    public func monotonicMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
