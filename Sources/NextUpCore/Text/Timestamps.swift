/// RFC 3339 formatting and parsing of millisecond timestamps, in UTC. Pure.
public enum Timestamps {
    /// `2026-11-22T10:04:05.123Z`.
    public static func rfc3339(_ millis: Int64) -> String {
        var written = false
        let text = String(unsafeUninitializedCapacity: 24) { buffer in
            written = write(millis, into: buffer)
            return written ? 24 : 0
        }
        if written { return text }
        let (date, h, m, s, ms) = parts(millis)
        return "\(date)T\(FixedDigits.padded(Int(h), 2)):\(FixedDigits.padded(Int(m), 2)):\(FixedDigits.padded(Int(s), 2)).\(FixedDigits.padded(Int(ms), 3))Z"
    }

    private static func parts(_ millis: Int64) -> (DueDate, Int64, Int64, Int64, Int64) {
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let rest = millis - days * 86_400_000
        return (DueDate(epochDay: days), rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000)
    }

    /// The 24 bytes of ``rfc3339(_:)`` into `buffer`; false (nothing
    /// written) for a year outside 0...9999.
    private static func write(_ millis: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        let (date, h, m, s, ms) = parts(millis)
        guard (0...9999).contains(date.year) else { return false }
        date.write(into: buffer)
        buffer[10] = UInt8(ascii: "T")
        FixedDigits.put(Int(h), width: 2, into: buffer, at: 11); buffer[13] = UInt8(ascii: ":")
        FixedDigits.put(Int(m), width: 2, into: buffer, at: 14); buffer[16] = UInt8(ascii: ":")
        FixedDigits.put(Int(s), width: 2, into: buffer, at: 17); buffer[19] = UInt8(ascii: ".")
        FixedDigits.put(Int(ms), width: 3, into: buffer, at: 20); buffer[23] = UInt8(ascii: "Z")
        return true
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`; nil for anything else.
    public static func parse(_ text: String) -> Int64? {
        parseWritten(text) ?? parseGeneral(text)
    }

    /// The form ``rfc3339(_:)`` writes, `YYYY-MM-DDTHH:MM:SS.fffZ`, read on
    /// bytes (every imported task has three). Nil for anything else,
    /// including impossible dates, which ``parseGeneral(_:)`` then refuses.
    static func parseWritten(_ text: String) -> Int64? {
        guard text.utf8.count == 24 else { return nil }
        var text = text
        // On the string's own bytes: no array of digits, no copy.
        return text.withUTF8 { b -> Int64? in
            guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"),
                  b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "."), b[23] == UInt8(ascii: "Z") else { return nil }
            func number(_ from: Int, _ to: Int) -> Int64? { FixedDigits.read(b, at: from, width: to - from).map(Int64.init) }
            guard let y = number(0, 4), let mo = number(5, 7), let d = number(8, 10),
                  let h = number(11, 13), let m = number(14, 16), let s = number(17, 19), let ms = number(20, 23) else { return nil }
            let year = Int(y), month = Int(mo), day = Int(d)
            guard (1...9999).contains(year), (1...12).contains(month),
                  (1...DueDate.daysIn(month: month, year: year)).contains(day), h < 24, m < 60, s < 61 else { return nil }
            return CivilDate.days(year: year, month: month, day: day) * 86_400_000 + ((h * 60 + m) * 60 + s) * 1000 + ms
        }
    }

    /// Every spelling ``parse(_:)`` accepts.
    static func parseGeneral(_ text: String) -> Int64? {
        let chars = Array(text)
        guard chars.count >= 20, chars[10] == "T" || chars[10] == "t" || chars[10] == " ",
              let date = try? DueDate.parse(String(chars[0..<10])),
              chars[13] == ":", chars[16] == ":",
              let h = Int64(String(chars[11..<13])), let m = Int64(String(chars[14..<16])),
              let s = Int64(String(chars[17..<19])), h < 24, m < 60, s < 61 else { return nil }
        var i = 19
        var ms: Int64 = 0
        if i < chars.count, chars[i] == "." {
            i += 1
            var digits = ""
            while i < chars.count, chars[i].isASCIIDigitChar { digits.append(chars[i]); i += 1 }
            guard !digits.isEmpty else { return nil }
            ms = Int64(String((digits + "00").prefix(3)))!
        }
        var offset: Int64 = 0
        let zone = String(chars[i...])
        if zone == "Z" || zone == "z" {
            offset = 0
        } else {
            let z = Array(zone)
            guard z.count == 6, z[0] == "+" || z[0] == "-", z[3] == ":",
                  let oh = Int64(String(z[1...2])), let om = Int64(String(z[4...5])) else { return nil }
            offset = (oh * 60 + om) * 60_000 * (z[0] == "-" ? -1 : 1)
        }
        return date.epochDay * 86_400_000 + ((h * 60 + m) * 60 + s) * 1000 + ms - offset
    }
}
