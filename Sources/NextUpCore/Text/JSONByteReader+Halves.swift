extension JSONByteReader {
    /// From this many bytes on (about 1,000 tasks), a whole file's array is
    /// worth reading in two halves at once.
    public static let halvesFrom = 256 * 1024

    /// `bytes` — white space, a JSON array of objects, white space — read
    /// as two halves at once (``SideBySide``), split between two objects
    /// near the middle, each object by `element` (which starts at its `{`);
    /// nil when no split is found or either half does not read (the caller
    /// then reads it whole, and says what is wrong).
    ///
    /// The split is the first `}`, `,`, `{` (white space between) after the
    /// middle byte — found without reading what comes before, so it may lie
    /// inside a string. It is a real boundary between two elements exactly
    /// when the first half reads as `[` and whole elements up to it: the
    /// reader is deterministic, so the whole array, read from its start, is
    /// at that same place then, and the second half reads as the rest of it.
    ///
    /// The second half's items are moved after the first's
    /// (``Swift/Array/append(moving:leaving:)``, `placeholder` left behind).
    ///
    /// Each half's array is made with room for its share of the elements,
    /// reckoned at `elementBytes` bytes of text an element (the first half's
    /// for the whole array, which it takes in): an array grown by doubling
    /// copied its elements and touched fresh memory at each step.
    ///
    /// Contract: when not nil, the result is `array(element)` of the same
    /// bytes, white space around allowed and nothing after.
    @inlinable
    public static func arrayInHalves<T>(_ bytes: UnsafeBufferPointer<UInt8>, leaving placeholder: T, elementBytes: Int,
                                        _ element: (inout JSONByteReader) -> T?) -> [T]? {
        guard let comma = boundary(in: bytes, from: bytes.count / 2) else { return nil }
        let halves = try? SideBySide.run({ () -> [T]? in
            var reader = JSONByteReader(bytes: UnsafeBufferPointer(rebasing: bytes[..<comma]))
            reader.skipWhitespace()
            guard reader.take("[") else { return nil }
            return reader.elements(element, closed: false, reserving: bytes.count / max(1, elementBytes))
        }, { () -> [T]? in
            var reader = JSONByteReader(bytes: UnsafeBufferPointer(rebasing: bytes[(comma + 1)...]))
            guard let items = reader.elements(element, closed: true, reserving: (bytes.count - comma) / max(1, elementBytes)) else { return nil }
            reader.skipWhitespace()
            return reader.atEnd ? items : nil
        })
        guard var first = halves?.0, var second = halves?.1 else { return nil }
        first.append(moving: &second, leaving: placeholder)
        return first
    }

    /// The offset of the comma of the first `}` `,` `{` at or after `start`.
    @usableFromInline
    static func boundary(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        func skipSpace(_ i: inout Int) {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }
        var i = start
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "}") {
                var j = i + 1
                skipSpace(&j)
                if j < bytes.count, bytes[j] == UInt8(ascii: ",") {
                    var k = j + 1
                    skipSpace(&k)
                    if k < bytes.count, bytes[k] == UInt8(ascii: "{") { return j }
                }
            }
            i += 1
        }
        return nil
    }
}
