/// A calendar date (no time of day, no time zone), written `YYYY-MM-DD`.
public struct DueDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) throws {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day) else {
            throw TaskInputError("due date \(year)-\(month)-\(day) does not exist")
        }
        self.year = year; self.month = month; self.day = day
    }

    /// Parses exactly `YYYY-MM-DD` and checks the day exists.
    public static func parse(_ text: String) throws -> DueDate {
        // The common spelling, read on its ten bytes (an import reads one per
        // task); anything else goes the general way below.
        var bytes = text
        if bytes.utf8.count == 10, let date = bytes.withUTF8({ b -> DueDate? in
            guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), let y = FixedDigits.read(b, at: 0, width: 4),
                  let m = FixedDigits.read(b, at: 5, width: 2), let d = FixedDigits.read(b, at: 8, width: 2) else { return nil }
            return try? DueDate(year: y, month: m, day: d)
        }) {
            return date
        }
        let t = text.trimmingWhitespace()
        let parts = t.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigitChar) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else {
            throw TaskInputError("due date must be YYYY-MM-DD, not '\(Sanitizer.visible(text))'")
        }
        do { return try DueDate(year: y, month: m, day: d) } catch {
            throw TaskInputError("due date '\(t)' is not a real date")
        }
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (proleptic Gregorian).
    public var epochDay: Int64 { CivilDate.days(year: year, month: month, day: day) }

    /// The date `days` days after 1970-01-01.
    public init(epochDay: Int64) {
        let c = CivilDate.civil(days: epochDay)
        self.year = c.year; self.month = c.month; self.day = c.day
    }

    public var description: String {
        guard (0...9999).contains(year) else {
            return "\(FixedDigits.padded(year, 4))-\(FixedDigits.padded(month, 2))-\(FixedDigits.padded(day, 2))"
        }
        return String(unsafeUninitializedCapacity: 10) { buffer in
            write(into: buffer)
            return 10
        }
    }

    /// Writes `YYYY-MM-DD` into the first 10 bytes of `buffer` (a year of
    /// four digits).
    func write(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        FixedDigits.put(year, width: 4, into: buffer, at: 0); buffer[4] = UInt8(ascii: "-")
        FixedDigits.put(month, width: 2, into: buffer, at: 5); buffer[7] = UInt8(ascii: "-")
        FixedDigits.put(day, width: 2, into: buffer, at: 8)
    }

    public static func < (lhs: DueDate, rhs: DueDate) -> Bool { lhs.epochDay < rhs.epochDay }
}

/// Calendar arithmetic on days since the epoch (H. Hinnant's algorithms).
public enum CivilDate {
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month), d = Int64(day)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civil(days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(m <= 2 ? y + 1 : y), Int(m), Int(d))
    }
}

import Foundation
