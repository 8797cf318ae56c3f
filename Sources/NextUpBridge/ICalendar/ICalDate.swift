import Foundation
import NextUpCore

/// DATE and DATE-TIME values (RFC 5545 §3.3.4, §3.3.5). Pure.
public enum ICalDate {
    /// `YYYYMMDD` for a due date.
    public static func format(_ date: DueDate) -> String {
        String(format4(date.year)) + pad2(date.month) + pad2(date.day)
    }

    /// A UTC DATE-TIME (`YYYYMMDDTHHMMSSZ`) for milliseconds since the epoch
    /// (the milliseconds are dropped).
    public static func formatUTC(millis: Int64) -> String {
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        let (y, m, d) = CivilDate.civil(days: days)
        return format4(y) + pad2(m) + pad2(d) + "T" + pad2(rest / 3600) + pad2(rest / 60 % 60) + pad2(rest % 60) + "Z"
    }

    /// The calendar date of a DATE or DATE-TIME value, as written (a
    /// DATE-TIME's time and zone are ignored: a due date is a day). Nil when
    /// the value is neither.
    public static func date(_ value: String) -> DueDate? {
        let bytes = Array(value.utf8)
        guard bytes.count == 8 || (bytes.count >= 15 && bytes[8] == UInt8(ascii: "T")) else { return nil }
        guard let y = number(bytes[0..<4]), let m = number(bytes[4..<6]), let d = number(bytes[6..<8]) else { return nil }
        if bytes.count > 8, parseTime(bytes) == nil { return nil }
        return try? DueDate(year: y, month: m, day: d)
    }

    /// Milliseconds since the epoch of a DATE-TIME value; a floating or
    /// TZID-qualified time is read as UTC (the bridge keeps only seconds of a
    /// completion time), a DATE as its midnight UTC. Nil when malformed.
    public static func millis(_ value: String) -> Int64? {
        let bytes = Array(value.utf8)
        guard let date = date(value) else { return nil }
        var seconds = date.epochDay * 86_400
        if bytes.count > 8, let (h, mi, s) = parseTime(bytes) {
            seconds += Int64(h * 3600 + mi * 60 + s)
        }
        return seconds * 1000
    }

    /// The instant (ms since the epoch) of a DATE-TIME value as the
    /// bridge reads `LAST-MODIFIED` and `COMPLETED`: `…Z` is UTC, a floating
    /// time is local time in `zone` (a TZID-qualified one too: RFC 5545
    /// wants these in UTC, and a phone's zone is nearly always the
    /// person's). Nil when malformed.
    public static func instant(_ value: String, zone: LocalZone) -> Int64? {
        guard let wall = millis(value) else { return nil }
        return value.hasSuffix("Z") || value.utf8.count == 8 ? wall : zone.utc(fromLocal: wall)
    }

    /// The local calendar date of a DUE property: a DATE or a floating
    /// DATE-TIME as written; a UTC one (`…Z`, 24 Dec 21:00 in New York is
    /// `20261225T020000Z`) or one with a `TZID` the zone database knows
    /// converted to `zone`; one with an unknown `TZID` as written (see
    /// ``unknownZone(_:)``).
    public static func localDate(_ property: ICalProperty, zone: LocalZone) -> DueDate? {
        let value = property.value.trimmingCharacters(in: .whitespaces)
        guard timePart(value) != nil, let wall = localWall(property, zone: zone) else { return date(value) }
        let days = wall >= 0 ? wall / 86_400_000 : (wall - 86_399_999) / 86_400_000
        let (y, m, d) = CivilDate.civil(days: days)
        return try? DueDate(year: y, month: m, day: d)
    }

    /// The wall-clock time in `zone` (ms, as if UTC) of a DATE-TIME
    /// property: `…Z` from UTC, a known `TZID` from that zone, a floating
    /// time or an unknown `TZID` as written. Nil when malformed.
    static func localWall(_ property: ICalProperty, zone: LocalZone) -> Int64? {
        let value = property.value.trimmingCharacters(in: .whitespaces)
        guard let wall = millis(value) else { return nil }
        if value.hasSuffix("Z") { return zone.local(fromUTC: wall) }
        if let named = property.parameter("TZID").flatMap(LocalZone.named) {
            return zone.local(fromUTC: named.utc(fromLocal: wall))
        }
        return wall
    }

    /// The `TZID` of a DATE-TIME property when the zone database does not
    /// know it (its time is then read as written), else nil.
    public static func unknownZone(_ property: ICalProperty) -> String? {
        let value = property.value.trimmingCharacters(in: .whitespaces)
        guard let tzid = property.parameter("TZID"), timePart(value) != nil,
              !value.hasSuffix("Z"), LocalZone.named(tzid) == nil else { return nil }
        return tzid
    }

    /// The time of day of a DATE-TIME value (`HHMMSS` and `Z` when UTC), nil for a DATE.
    static func timePart(_ value: String) -> String? {
        guard value.utf8.count > 8, let t = value.firstIndex(of: "T") else { return nil }
        return String(value[value.index(after: t)...])
    }

    private static func parseTime(_ bytes: [UInt8]) -> (Int, Int, Int)? {
        guard bytes.count == 15 || (bytes.count == 16 && bytes[15] == UInt8(ascii: "Z")) else { return nil }
        guard let h = number(bytes[9..<11]), let mi = number(bytes[11..<13]), let s = number(bytes[13..<15]),
              h < 24, mi < 60, s <= 60 else { return nil }
        return (h, mi, min(s, 59))
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var n = 0
        for b in digits {
            guard b >= 48, b <= 57 else { return nil }
            n = n * 10 + Int(b - 48)
        }
        return n
    }

    private static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
    private static func format4(_ n: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
