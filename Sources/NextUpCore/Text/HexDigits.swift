/// Hexadecimal digits read on bytes: the one reader behind versions in the
/// store's versions column and in the peer logs, and JSON's `\u` escapes.
public enum HexDigits {
    /// The value of one hex digit of either case, or nil.
    @inlinable
    public static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The number 1 to 16 hex digits of either case make; nil for no
    /// digits, more than 16, or any byte that is not one.
    @inlinable
    public static func value(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = Self.value(of: byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
