import NextUpCore

/// Taskwarrior's date form in its JSON: `YYYYMMDDTHHMMSSZ`, always UTC.
enum TaskwarriorDate {
    /// Milliseconds since the epoch, or nil when `text` is not of that form
    /// or not a real date and time.
    static func parse(_ text: String) -> Int64? {
        guard text.utf8.count == 16 else { return nil }
        var text = text
        // On the string's own bytes (no array per date: four per task).
        return text.withUTF8 { b -> Int64? in
            guard b[8] == UInt8(ascii: "T"), b[15] == UInt8(ascii: "Z") else { return nil }
            func number(_ from: Int, _ count: Int) -> Int? { FixedDigits.read(b, at: from, width: count) }
            guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2),
                  let hour = number(9, 2), let minute = number(11, 2), let second = number(13, 2),
                  (1...12).contains(month), day >= 1, hour < 24, minute < 60, second < 60 else { return nil }
            let days = CivilDate.days(year: year, month: month, day: day)
            // A day past the month's end (Feb 30) comes back as another date.
            guard CivilDate.civil(days: days) == (year, month, day) else { return nil }
            return (days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000
        }
    }

    /// `YYYYMMDDTHHMMSSZ` for milliseconds since the epoch (sub-second part dropped).
    static func format(_ millis: Int64) -> String {
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        let (y, m, d) = CivilDate.civil(days: days)
        guard (0...9999).contains(y) else {
            return FixedDigits.padded(y, 4) + FixedDigits.padded(m, 2) + FixedDigits.padded(d, 2) + "T"
                + FixedDigits.padded(rest / 3600, 2) + FixedDigits.padded(rest / 60 % 60, 2) + FixedDigits.padded(rest % 60, 2) + "Z"
        }
        // Written on bytes: several per task in an import from Taskwarrior.
        return String(unsafeUninitializedCapacity: 16) { b in
            FixedDigits.put(y, width: 4, into: b, at: 0)
            FixedDigits.put(m, width: 2, into: b, at: 4)
            FixedDigits.put(d, width: 2, into: b, at: 6)
            b[8] = UInt8(ascii: "T")
            FixedDigits.put(rest / 3600, width: 2, into: b, at: 9)
            FixedDigits.put(rest / 60 % 60, width: 2, into: b, at: 11)
            FixedDigits.put(rest % 60, width: 2, into: b, at: 13)
            b[15] = UInt8(ascii: "Z")
            return 16
        }
    }
}
