/// Decimal numbers written at a fixed width, zero-padded, straight into a
/// byte buffer: the one helper behind dates and timestamps written on bytes.
public enum FixedDigits {
    /// Writes `n` (0 ≤ n < 10^width) as `width` digits at `start`.
    public static func put(_ n: Int, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var n = n
        for i in stride(from: start + width - 1, through: start, by: -1) {
            buffer[i] = UInt8(ascii: "0") + UInt8(n % 10)
            n /= 10
        }
    }

    /// `n` zero-padded to at least `width` digits, for values outside the
    /// byte path's range (years before 0 or after 9999).
    public static func padded(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
