import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The person's time zone as the bridge needs it: the UTC offset at an
/// instant, to read a floating time (`LAST-MODIFIED` without `Z`, as
/// Nextcloud Tasks writes it) as local time and a UTC due time as a local
/// date. ``system`` asks `localtime_r` (the `TZ` variable, else
/// /etc/localtime); tests pass a fixed offset.
public struct LocalZone: Sendable {
    /// Seconds east of UTC at `seconds` since the epoch.
    public let offset: @Sendable (Int64) -> Int

    public init(offset: @escaping @Sendable (Int64) -> Int) {
        self.offset = offset
    }

    /// A zone `seconds` east of UTC all year.
    public static func fixed(_ seconds: Int) -> LocalZone { LocalZone { _ in seconds } }

    /// The machine's zone.
    public static let system = LocalZone { seconds in
        var t = time_t(seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// The zone a `TZID` names in the system's zone database (tzdata:
    /// `America/New_York`), nil when the database does not know the name.
    public static func named(_ tzid: String) -> LocalZone? {
        guard !tzid.isEmpty, let zone = TimeZone(identifier: tzid) else { return nil }
        return LocalZone { seconds in zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))) }
    }

    /// The UTC instant (ms) of a local wall-clock time given as if it were UTC (ms).
    func utc(fromLocal wall: Int64) -> Int64 {
        let first = wall - Int64(offset(wall / 1000)) * 1000
        return wall - Int64(offset(first / 1000)) * 1000
    }

    /// The local wall-clock time (as if UTC, ms) of a UTC instant (ms).
    func local(fromUTC instant: Int64) -> Int64 {
        instant + Int64(offset(instant / 1000)) * 1000
    }
}
