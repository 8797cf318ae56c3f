/// Decimal numbers at a fixed width, zero-padded, written straight into a
/// byte buffer and read straight from one: the one helper behind dates and
/// timestamps written and read on bytes.
public enum FixedDigits {
    /// Writes `n` (0 ≤ n < 10^width) as `width` digits at `start`.
    public static func put(_ n: Int, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var n = n
        for i in stride(from: start + width - 1, through: start, by: -1) {
            buffer[i] = UInt8(ascii: "0") + UInt8(n % 10)
            n /= 10
        }
    }

    /// The number the `width` decimal digits at `start` make, or nil when
    /// any of them is not a digit.
    @inlinable
    public static func read(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int, width: Int) -> Int? {
        var n = 0
        for i in start..<(start + width) {
            let digit = buffer[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            n = n * 10 + Int(digit)
        }
        return n
    }

    /// `n` zero-padded to at least `width` digits, for values outside the
    /// byte path's range (years before 0 or after 9999).
    public static func padded(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
