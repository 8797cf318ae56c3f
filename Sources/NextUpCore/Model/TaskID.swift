import Foundation

/// The identity of a task: a UUID made once, at creation, on the device that
/// created it, and never changed (DESIGN.md §1, §2).
///
/// Held as the UUID's 128 bits, so that a list of ids is copied and freed
/// without touching each id; its text (``rawValue``) is always the canonical
/// lowercase form, and ids order as that text does.
public struct TaskID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The UUID's first and last 64 bits (the text's first and last 16 hex digits).
    private let high: UInt64
    private let low: UInt64

    /// Accepts any UUID spelling; ``rawValue`` is its canonical lowercase form.
    public init?(_ string: String) {
        // The canonical form (every id the store and the logs hold) is read
        // in one pass; any other spelling is made canonical first.
        var string = string
        if let bits = string.withUTF8(Self.canonicalBits) {
            (high, low) = bits
            return
        }
        guard var canonical = CanonicalUUID.lowercased(string), let bits = canonical.withUTF8(Self.canonicalBits) else { return nil }
        (high, low) = bits
    }

    /// The 128 bits of a canonical UUID's text (36 bytes, lowercase hex
    /// digits, hyphens at 8, 13, 18 and 23); nil for anything else.
    private static func canonicalBits(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        var digits = 0
        for (i, byte) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            if byte &- UInt8(ascii: "0") < 10 {
                value = byte &- UInt8(ascii: "0")
            } else if byte &- UInt8(ascii: "a") < 6 {
                value = byte &- UInt8(ascii: "a") &+ 10
            } else {
                return nil
            }
            if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            digits += 1
        }
        return (high, low)
    }

    /// The canonical text: 32 lowercase hex digits, hyphens after the 8th, 12th, 16th and 20th.
    public var rawValue: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            var at = 0
            for digit in 0..<32 {
                if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                    buffer[at] = UInt8(ascii: "-")
                    at += 1
                }
                buffer[at] = Self.hexDigit(digit, of: digit < 16 ? high : low)
                at += 1
            }
            return at
        }
    }

    /// The nil UUID: no task's identity (a new task's id is random), for a
    /// value that stands in for none — a placeholder left where a task was
    /// moved out.
    public static let zero = TaskID("00000000-0000-0000-0000-000000000000")!

    /// A fresh random identity.
    public static func make() -> TaskID {
        TaskID(UUID().uuidString)!
    }

    public var description: String { rawValue }
    /// The first eight characters, as shown in tables.
    public var short: String {
        String(unsafeUninitializedCapacity: 8) { buffer in
            for digit in 0..<8 { buffer[digit] = Self.hexDigit(digit, of: high) }
            return 8
        }
    }

    /// The lowercase hex digit at place `digit` (0–15 from the left; 16–31 read as 0–15) of `word`.
    private static func hexDigit(_ digit: Int, of word: UInt64) -> UInt8 {
        let value = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (digit % 16))) & 0xF
        return value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    public static func < (lhs: TaskID, rhs: TaskID) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
