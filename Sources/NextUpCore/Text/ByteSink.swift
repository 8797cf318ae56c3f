/// Somewhere bytes are appended: a `[UInt8]`, or a buffer managed by hand
/// for a hot path (the JSON writer's staging of one task object). The byte
/// writers of ``JSONBytes``, ``Timestamps`` and ``Version`` append to any,
/// and are inlinable so that each caller gets them specialized for its sink.
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
