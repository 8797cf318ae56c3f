/// Somewhere bytes are appended (a `[UInt8]`): what ``JSONBytes`` writes to.
public protocol ByteSink {
    mutating func append(_ byte: UInt8)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteSink where Element == UInt8 {
    @inlinable
    public mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

extension ByteSink {
    /// Appends a literal's UTF-8 (no string made).
    @inlinable @inline(__always)
    public mutating func appendLiteral(_ text: StaticString) {
        appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
