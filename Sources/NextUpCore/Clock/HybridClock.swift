/// A hybrid logical clock (Kulkarni et al.): timestamps follow physical time
/// when the machine's clock is sane, and still move strictly forward past every
/// timestamp this replica has seen when it is not.
///
/// Contract: ``tick(now:)`` returns a timestamp greater than every timestamp
/// previously returned or passed to ``observe(_:)``. Hence an edit made after
/// seeing a value always carries a higher version than that value, whatever the
/// two machines' wall clocks say.
///
/// A clock that runs ahead (DESIGN.md §2): a replica's clock follows only
/// what its own machine's clock allows, ``observe(_:now:)`` moving it at most
/// ``followAhead`` past physical time. A version from a machine whose clock
/// runs ahead is merged like any other (the merge never looks at clocks), but
/// it moves no other task's versions here: only an edit of the register that
/// holds it must go past it, which ``LocalEdit`` does for the task it edits.
///
/// The sane future (DESIGN.md §2): a timestamp more than ``maxAhead`` (a year)
/// ahead of the local physical clock cannot come from a working machine. Such
/// a version is refused as damaged wherever it would enter the store (a log
/// line, an import), so a clock never observes it; a store that observed one
/// before this rule existed is repaired when it opens.
public struct HybridClock: Sendable, Equatable {
    /// How far ahead of local time a remote timestamp may be before it is
    /// reported as clock skew (it is accepted either way, up to ``maxAhead``).
    public static let skewTolerance: Int64 = 60_000
    /// How far past local time a clock follows the versions it sees from
    /// others (``observe(_:now:)``): about the skew between two clocks kept
    /// by NTP, so that of two edits on two such machines a second or more
    /// apart, the later one wins.
    public static let followAhead: Int64 = 1_000
    /// How far ahead of local time a timestamp may be at all: one year
    /// (366 days). Beyond it, a version is damaged and refused.
    public static let maxAhead: Int64 = 366 * 86_400_000

    /// Whether `timestamp` lies beyond the sane future as seen at physical
    /// time `now` (ms): more than ``maxAhead`` ahead. Never traps.
    public static func isBeyondSaneFuture(_ timestamp: HybridTimestamp, now: Int64) -> Bool {
        timestamp > saneFutureLimit(now: now)
    }

    /// The greatest timestamp within the sane future at physical time `now`.
    public static func saneFutureLimit(now: Int64) -> HybridTimestamp {
        let (limit, overflow) = now.addingReportingOverflow(maxAhead)
        if overflow || limit >= HybridTimestamp.maxMillis { return .greatest }
        return HybridTimestamp(millis: limit, counter: 0xFFFF)
    }

    public private(set) var last: HybridTimestamp

    public init(last: HybridTimestamp = .zero) { self.last = last }

    /// A new timestamp for a local event at physical time `now` (ms).
    public mutating func tick(now: Int64) -> HybridTimestamp {
        let physical = HybridTimestamp(millis: now)
        last = max(last.successor, physical)
        return last
    }

    /// Takes a timestamp seen from elsewhere into account.
    public mutating func observe(_ remote: HybridTimestamp) {
        if remote > last { last = remote }
    }

    /// Takes a timestamp seen from elsewhere into account at physical time
    /// `now` (ms), as far as ``limit(now:)``: a remote clock ahead of this
    /// machine's does not carry this one along.
    public mutating func observe(_ remote: HybridTimestamp, now: Int64) {
        observe(min(remote, Self.limit(now: now)))
    }

    /// The furthest a clock follows others at physical time `now`: ``followAhead`` ahead.
    public static func limit(now: Int64) -> HybridTimestamp {
        let (limit, overflow) = now.addingReportingOverflow(followAhead)
        if overflow || limit >= HybridTimestamp.maxMillis { return .greatest }
        return HybridTimestamp(millis: max(0, limit), counter: 0xFFFF)
    }

    /// This clock as it may stand at physical time `now`: one carried more
    /// than ``skewTolerance`` ahead (by a version a clock ahead wrote, before
    /// ``observe(_:now:)`` existed — its own ticks never get that far) is
    /// brought back to ``limit(now:)``; one beyond the sane future is left
    /// as it is, for the store's repair when it opens. Every local version
    /// is still made greater than every version of the task it is on.
    public func reined(now: Int64) -> HybridClock {
        guard Self.skew(of: last, now: now) != nil, !Self.isBeyondSaneFuture(last, now: now) else { return self }
        return HybridClock(last: Self.limit(now: now))
    }

    /// Milliseconds by which `remote` is ahead of physical time `now`, when that
    /// exceeds ``skewTolerance``; nil otherwise.
    public static func skew(of remote: HybridTimestamp, now: Int64) -> Int64? {
        let (ahead, overflow) = remote.millis.subtractingReportingOverflow(now)
        if overflow { return now < 0 ? Int64.max : nil }
        return ahead > skewTolerance ? ahead : nil
    }
}
