/// Turns a burst of events into one signal: due a quiet period after the last
/// event, and never later than a maximum delay after the first event of the
/// burst (so a steady storm still signals, about once per maximum delay).
///
/// A pure value driven by the caller's monotonic time in milliseconds, so it is
/// tested without sleeping. Contract:
/// - after ``record(at:)``, ``deadline`` is `min(lastEvent + quiet, firstEvent + maximumDelay)`;
/// - ``fireIfDue(at:)`` returns true exactly once per burst, at or after the
///   deadline, and resets the burst;
/// - with no pending event, ``deadline`` is nil and nothing fires.
public struct Debouncer: Sendable, Equatable {
    /// Milliseconds of silence after the last event before signalling.
    public let quietMillis: Int64
    /// Milliseconds after the first event of a burst by which the signal is due
    /// however many events keep arriving.
    public let maximumDelayMillis: Int64

    private var firstEvent: Int64?
    private var lastEvent: Int64?

    /// The defaults DESIGN.md §6 asks for: 150 ms quiet, 1 s at most.
    public init(quietMillis: Int64 = 150, maximumDelayMillis: Int64 = 1_000) {
        precondition(quietMillis >= 0 && maximumDelayMillis >= quietMillis, "the maximum delay is at least the quiet period")
        self.quietMillis = quietMillis
        self.maximumDelayMillis = maximumDelayMillis
    }

    /// Whether an event is waiting to be signalled.
    public var isPending: Bool { firstEvent != nil }

    /// Notes an event at monotonic time `now`.
    public mutating func record(at now: Int64) {
        if firstEvent == nil { firstEvent = now }
        lastEvent = max(lastEvent ?? now, now)
    }

    /// When the pending burst is due to be signalled; nil when nothing is pending.
    public var deadline: Int64? {
        guard let firstEvent, let lastEvent else { return nil }
        return min(lastEvent + quietMillis, firstEvent + maximumDelayMillis)
    }

    /// Returns true (and forgets the burst) when a signal is due at `now`.
    public mutating func fireIfDue(at now: Int64) -> Bool {
        guard let deadline, now >= deadline else { return false }
        firstEvent = nil
        lastEvent = nil
        return true
    }
}
