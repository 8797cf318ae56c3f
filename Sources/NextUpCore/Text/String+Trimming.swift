import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, returning `self` at
    /// once when neither end is white space — the usual case, which on Linux
    /// otherwise goes through an NSString bridge (8% of an import of 100,000
    /// tasks). Exact: every member of Foundation's white-space sets has the
    /// Unicode `White_Space` property or is U+200B ZERO WIDTH SPACE, which
    /// Foundation on Linux still counts (checked by `StringTrimmingTests`).
    func trimmingWhitespaceAndNewlines() -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
              Self.mayTrim(first) || Self.mayTrim(last) else { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `trimmingCharacters(in: .whitespaces)` with the same shortcut.
    public func trimmingWhitespace() -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
              Self.mayTrim(first) || Self.mayTrim(last) else { return self }
        return trimmingCharacters(in: .whitespaces)
    }

    /// Whether `scalar` is white space (Unicode's `White_Space`) or U+200B.
    /// An ASCII scalar is answered from the ASCII white space (tab to carriage
    /// return, and space; its property look-up was 1% of an import), any
    /// other from its properties.
    static func mayTrim(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace || scalar.value == 0x200B
    }
}
