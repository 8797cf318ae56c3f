/// A cursor over UTF-8 bytes of JSON text in one exact, known form: the
/// literal punctuation and keys are matched with ``take(_:)``, values read
/// with ``string()``, ``integer()`` and ``value()``. The sync log's lines are
/// read with it (`JSONDecoder` is too slow for a first sync): the reader
/// takes the form its own writer produces and falls back to `JSONDecoder`
/// whenever a read returns nil or `false`.
///
/// Contract: every read either consumes exactly the JSON it returns or
/// returns nil (the position is then unspecified; callers give up). It is
/// stricter than JSON, never looser: a value it returns is the value
/// `JSONDecoder` would give for the same text, and anything it is not sure of
/// (fractions, exponents, leading zeros, `-0`, `\u` escapes other than the
/// `\u00xx` control characters writers emit) is refused.
public struct JSONByteReader {
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next unread byte.
    public var index: Int

    public init(bytes: UnsafeBufferPointer<UInt8>, index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    @inlinable
    public var atEnd: Bool { index == bytes.count }

    /// Consumes `literal` if the text continues with exactly it.
    @inlinable
    public mutating func take(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard index + n <= bytes.count else { return false }
        let start = literal.utf8Start
        for k in 0..<n where bytes[index + k] != start[k] { return false }
        index += n
        return true
    }

    /// Skips JSON white space (space, tab, line feed, carriage return).
    @inlinable
    public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// A JSON integer that fits in `Int64`, without fraction or exponent.
    public mutating func integer() -> Int64? {
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            // Plain 0 only: no leading zeros, no -0.
            index += 1
            if negative { return nil }
            if index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { return nil }
            return endsNumber ? 0 : nil
        }
        var value: Int64 = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let d = Int64(bytes[index] - UInt8(ascii: "0"))
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            value = s
            index += 1
        }
        return endsNumber ? value : nil
    }

    /// Whether the number just read is not followed by a fraction or exponent.
    private var endsNumber: Bool {
        guard index < bytes.count else { return true }
        let b = bytes[index]
        return b != UInt8(ascii: ".") && b != UInt8(ascii: "e") && b != UInt8(ascii: "E")
    }

    /// A field value: string, integer, `true`, `false` or `null`.
    public mutating func value() -> FieldValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map(FieldValue.string)
        case UInt8(ascii: "n"): return take("null") ? .null : nil
        case UInt8(ascii: "t"): return take("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return take("false") ? .bool(false) : nil
        default: return integer().map(FieldValue.int)
        }
    }

    /// A JSON string. Escapes: the short ones (`\" \\ \/ \b \f \n \r \t`) and
    /// `\u00xx` for control characters; nil for any other `\u` escape, for an
    /// unescaped control character, or for bytes that are not valid UTF-8.
    /// The bytes of the next string, in place, when it holds no escape and
    /// no control byte (an object's key, matched without making a String);
    /// nil, with nothing read, for anything else — then read it with
    /// ``string()``. The bytes are not checked to be UTF-8.
    public mutating func plainStringBytes() -> UnsafeBufferPointer<UInt8>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < bytes.count {
            let b = bytes[end]
            if b == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
                index = end + 1
                return raw
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            end += 1
        }
        return nil
    }

    public mutating func string() -> String? {
        guard take("\"") else { return nil }
        let start = index
        // Fast path: no escapes, the bytes are the string (ASCII bytes are
        // valid UTF-8 as they are: no validation to pay for).
        var ascii = true
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return ascii ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
            }
            if b >= 0x80 { ascii = false }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            index += 1
        }
        var out = Array(bytes[start..<index])
        while index < bytes.count {
            let b = bytes[index]
            index += 1
            switch b {
            case UInt8(ascii: "\""): return String(validating: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "0"), bytes[index + 1] == UInt8(ascii: "0"),
                          let hi = HexDigits.value(of: bytes[index + 2]), let lo = HexDigits.value(of: bytes[index + 3]), hi < 2 else { return nil }
                    out.append(hi << 4 | lo)
                    index += 4
                default: return nil
                }
            case 0..<0x20: return nil
            default: out.append(b)
            }
        }
        return nil
    }

}
