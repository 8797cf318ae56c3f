/// The text rules of RFC 5545: TEXT escaping (§3.3.11), list splitting, and
/// line folding (§3.1). Pure functions.
public enum ICalText {
    /// Escapes a TEXT value: `\` `;` `,` and line breaks (CRLF, CR and LF all
    /// become `\n`).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n", previousCR { previousCR = false; continue }
            previousCR = scalar == "\r"
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Undoes TEXT escapes: `\\` `\;` `\,` `\n` `\N`. A backslash before any
    /// other character is kept as written (lenient, as clients are).
    public static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var out = ""
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                switch scalar {
                case "n", "N": out += "\n"
                case "\\", ";", ",": out.unicodeScalars.append(scalar)
                default: out += "\\"; out.unicodeScalars.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if escaping { out += "\\" }
        return out
    }

    /// Splits a raw (still escaped) list value on commas that are not escaped.
    /// An empty value is an empty list.
    public static func splitList(_ value: String) -> [String] {
        guard !value.isEmpty else { return [] }
        var parts: [String] = []
        var current = ""
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                current.unicodeScalars.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                current.unicodeScalars.append(scalar)
                escaping = true
            } else if scalar == "," {
                parts.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        parts.append(current)
        return parts
    }

    /// Folds one content line (without its line break) into lines of at most
    /// 75 octets, each continuation starting with one space; never splits a
    /// UTF-8 sequence. Joined with CRLF, without a trailing one.
    public static func fold(_ line: String, limit: Int = 75) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count > limit else { return line }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 70 * 3)
        var start = 0
        var room = limit
        while start < bytes.count {
            var end = min(start + room, bytes.count)
            // Back off to a scalar boundary (never end before a continuation byte).
            while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if start > 0 { out += [13, 10, 32] }
            out += bytes[start..<end]
            start = end
            room = limit - 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
