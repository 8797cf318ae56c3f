/// Writing JSON text straight into a byte buffer, exactly as Foundation's
/// `JSONEncoder` writes it, for the outbox entry of every write and the
/// stored opaque registers.
public enum JSONBytes {
    @usableFromInline static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string: `"` and `\` escaped, control characters
    /// as `\b \f \n \r \t` or `\u00xx`, `/` as `\/` only when
    /// `escapingSlashes` (JSONEncoder's default), everything else as UTF-8.
    @inlinable
    public static func appendString<Sink: ByteSink>(_ s: String, to out: inout Sink, escapingSlashes: Bool) {
        var s = s
        s.withUTF8 { appendString($0, to: &out, escapingSlashes: escapingSlashes) }
    }

    /// ``appendString(_:to:escapingSlashes:)`` of text given as its UTF-8
    /// bytes (a column read in place), which must be valid UTF-8.
    @inlinable
    public static func appendString<Sink: ByteSink>(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout Sink, escapingSlashes: Bool) {
        out.append(UInt8(ascii: "\""))
        // The runs that need no escape are copied in one go; eight bytes at a
        // time are checked for one that might (a word with none is skipped).
        guard let base = bytes.baseAddress else { out.append(UInt8(ascii: "\"")); return }
        let count = bytes.count
        var start = 0, i = 0
        while i < count {
            if i + 8 <= count, !mayNeedEscape(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self), escapingSlashes: escapingSlashes) {
                i += 8
                continue
            }
            let end = min(i + 8, count)
            while i < end {
                let byte = base[i]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapingSlashes && byte == UInt8(ascii: "/")) {
                    if start < i { out.appendBytes(UnsafeBufferPointer(start: base + start, count: i - start)) }
                    appendEscaped(byte, to: &out)
                    start = i + 1
                }
                i += 1
            }
        }
        if start < count { out.appendBytes(UnsafeBufferPointer(start: base + start, count: count - start)) }
        out.append(UInt8(ascii: "\""))
    }

    /// False only when none of the eight bytes of `word` is a control
    /// character, `"`, `\` (or `/` when `escapingSlashes`); true may be a false
    /// alarm (the bytes are then checked one by one).
    @inlinable @inline(__always)
    static func mayNeedEscape(_ word: UInt64, escapingSlashes: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        // Some byte below 0x20 (bytes of 0x80 and above have their high bit
        // set and are masked out).
        if (word &- ones &* 0x20) & ~word & highs != 0 { return true }
        if hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) { return true }
        return escapingSlashes && hasZeroByte(word ^ (ones &* 0x2F))
    }

    /// One byte that needs escaping, escaped as JSONEncoder does.
    @inlinable
    static func appendEscaped<Sink: ByteSink>(_ byte: UInt8, to out: inout Sink) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            out.appendLiteral("u00")
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
    }

    /// Appends a field value as JSONEncoder writes it.
    @inlinable
    public static func appendValue<Sink: ByteSink>(_ value: FieldValue, to out: inout Sink, escapingSlashes: Bool) {
        switch value {
        case .null: out.appendLiteral("null")
        case .string(let s): appendString(s, to: &out, escapingSlashes: escapingSlashes)
        case .int(let n):
            var text = String(n)
            text.withUTF8 { out.appendBytes($0) }
        case .bool(let b): out.appendLiteral(b ? "true" : "false")
        }
    }
}
