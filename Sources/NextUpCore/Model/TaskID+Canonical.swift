extension TaskID {
    /// Accepts only the canonical form (36 characters, lowercase hex digits
    /// and hyphens in the UUID positions) without going through `UUID`: the
    /// fast path for ids read back from the store, which holds only canonical
    /// ids. Anything else is nil.
    public init?(canonical text: String) {
        guard text.utf8.count == 36 else { return nil }
        var i = 0
        for b in text.utf8 {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b == UInt8(ascii: "-") else { return nil }
            } else {
                guard (b >= 48 && b <= 57) || (b >= 97 && b <= 102) else { return nil }
            }
            i += 1
        }
        self.rawValue = text
    }
}
