/// Turns a burst of events into few signals (DESIGN.md §6): the first event
/// of a burst is signalled at once; events within the quiet period after a
/// signal are coalesced into one more signal, due a quiet period after the
/// last of them and never later than a maximum delay after the first (so a
/// steady storm still signals, about once per maximum delay, and once at
/// its end).
///
/// A pure value driven by the caller's monotonic time in milliseconds, so it
/// is tested without sleeping. Contract:
/// - an event at least ``quietMillis`` after the last signal (or before any)
///   is due at once: ``deadline`` is its time;
/// - an event sooner than that is coalesced: ``deadline`` is
///   `min(lastEvent + quiet, firstEvent + maximumDelay)` over the coalesced events;
/// - ``fireIfDue(at:)`` returns true exactly once per pending batch, at or
///   after the deadline;
/// - with no pending event, ``deadline`` is nil and nothing fires.
public struct Debouncer: Sendable, Equatable {
    /// Milliseconds after a signal during which events are coalesced, and of
    /// silence after the last coalesced event before signalling it.
    public let quietMillis: Int64
    /// Milliseconds after the first coalesced event by which the signal is
    /// due however many events keep arriving.
    public let maximumDelayMillis: Int64

    private var firstEvent: Int64?
    private var lastEvent: Int64?
    private var lastSignal: Int64?
    /// Whether the pending batch began a burst (and is due at once).
    private var leading = false

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
        if firstEvent == nil {
            firstEvent = now
            leading = lastSignal.map { now >= $0 + quietMillis } ?? true
        }
        lastEvent = max(lastEvent ?? now, now)
    }

    /// When the pending events are due to be signalled; nil when nothing is pending.
    public var deadline: Int64? {
        guard let firstEvent, let lastEvent else { return nil }
        if leading { return firstEvent }
        return min(lastEvent + quietMillis, firstEvent + maximumDelayMillis)
    }

    /// Returns true (and forgets the pending events) when a signal is due at `now`.
    public mutating func fireIfDue(at now: Int64) -> Bool {
        guard let deadline, now >= deadline else { return false }
        firstEvent = nil
        lastEvent = nil
        lastSignal = now
        return true
    }
}
