import Foundation
import Glibc
import NextUpCore

/// The person's local time, from the C library (`localtime_r`, which honours
/// `TZ`): today's date, the offset from UTC, a clock reading for a line of
/// output. Foundation's `Calendar`, `TimeZone` and date formatters would load
/// ICU's data into every command that asks, and into the TUI on every tick.
public enum LocalTime {
    /// The broken-down local time at `millis` since the epoch.
    private static func parts(_ millis: Int64) -> tm? {
        var seconds = time_t(millis >= 0 ? millis / 1000 : (millis - 999) / 1000)
        var parts = tm()
        return localtime_r(&seconds, &parts) == nil ? nil : parts
    }

    /// Today's date where the person is.
    public static func today(atMillis millis: Int64) -> DueDate {
        guard let p = parts(millis),
              let day = try? DueDate(year: Int(p.tm_year) + 1900, month: Int(p.tm_mon) + 1, day: Int(p.tm_mday)) else {
            return DueDate(epochDay: millis / 86_400_000)
        }
        return day
    }

    /// The local time zone's offset from UTC at `millis`, in seconds.
    public static func utcOffsetSeconds(atMillis millis: Int64) -> Int {
        parts(millis).map { Int($0.tm_gmtoff) } ?? 0
    }

    /// `HH:MM:SS` at `millis`, local time: the stamp of a `sync --watch` line.
    public static func clock(atMillis millis: Int64) -> String {
        guard let p = parts(millis) else { return "--:--:--" }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(p.tm_hour)):\(two(p.tm_min)):\(two(p.tm_sec))"
    }

    /// Now, in milliseconds since the epoch.
    public static var nowMillis: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
