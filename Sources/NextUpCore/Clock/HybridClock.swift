/// A hybrid logical clock (Kulkarni et al.): timestamps follow physical time
/// when the machine's clock is sane, and still move strictly forward past every
/// timestamp this replica has seen when it is not.
///
/// Contract: ``tick(now:)`` returns a timestamp greater than every timestamp
/// previously returned or passed to ``observe(_:)``. Hence an edit made after
/// seeing a value always carries a higher version than that value, whatever the
/// two machines' wall clocks say.
public struct HybridClock: Sendable, Equatable {
    /// How far ahead of local time a remote timestamp may be before it is
    /// reported as clock skew (it is accepted either way).
    public static let skewTolerance: Int64 = 60_000

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

    /// Milliseconds by which `remote` is ahead of physical time `now`, when that
    /// exceeds ``skewTolerance``; nil otherwise.
    public static func skew(of remote: HybridTimestamp, now: Int64) -> Int64? {
        let ahead = remote.millis - now
        return ahead > skewTolerance ? ahead : nil
    }
}
