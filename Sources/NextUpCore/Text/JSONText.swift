/// The little JSON nextup writes on bytes — the peer log's lines, the task
/// objects of `export` and `--json`, the store's `extra` column — escaped as
/// Foundation's `JSONEncoder` escapes with `.withoutEscapingSlashes`, so the
/// bytes are deterministic: `"` and `\` escaped, control characters as
/// `\b \f \n \r \t` or `\u00xx`, everything else as UTF-8.
public enum JSONText {
    /// Appends `string` as a JSON string.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            var start = 0
            for i in bytes.indices {
                let byte = bytes[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x20...: out.append(byte)
                default: out.append(contentsOf: "u00".utf8); out.append(hex[Int(byte >> 4)]); out.append(hex[Int(byte & 0xF)])
                }
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Appends a field value.
    public static func appendValue(_ value: FieldValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .string(let s): appendString(s, to: &out)
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .json(let text): out.append(contentsOf: text.utf8)
        }
    }

    /// Appends text that is JSON already (punctuation, a number).
    public static func appendRaw(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}

extension Array where Element == UInt8 {
    /// Appends a literal's UTF-8 (no string made).
    public mutating func appendLiteral(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
