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
    func trimmingWhitespace() -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
              Self.mayTrim(first) || Self.mayTrim(last) else { return self }
        return trimmingCharacters(in: .whitespaces)
    }

    static func mayTrim(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.value == 0x200B
    }
}
