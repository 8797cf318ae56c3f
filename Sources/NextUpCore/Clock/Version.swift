/// The version of one field value: when (hybrid timestamp) and by whom
/// (replica) it was written.
///
/// Order: the higher timestamp wins; equal timestamps are broken by replica id.
/// Two different writes never share a version, because one replica never issues
/// the same timestamp twice.
public struct Version: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let timestamp: HybridTimestamp
    public let replica: ReplicaID

    public init(timestamp: HybridTimestamp, replica: ReplicaID) {
        self.timestamp = timestamp
        self.replica = replica
    }

    public static func < (lhs: Version, rhs: Version) -> Bool {
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        return lhs.replica < rhs.replica
    }

    /// `<16 hex digits>@<replica>`; sorts lexicographically in version order.
    public var encoded: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(17 + replica.rawValue.utf8.count)
        appendEncoded(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``encoded``'s bytes (which never need a JSON escape).
    @inlinable
    public func appendEncoded<Sink: ByteSink>(to bytes: inout Sink) {
        var replica = replica.rawValue
        replica.withUTF8 { Self.appendEncoded(timestamp: timestamp, replica: $0, to: &bytes) }
    }

    /// ``appendEncoded(to:)`` of the version of `timestamp` by the replica
    /// whose id's text is `replica` (the JSON writer keeps each replica's
    /// text at hand, not one string per field).
    @inlinable
    public static func appendEncoded<Sink: ByteSink>(timestamp: HybridTimestamp, replica: UnsafeBufferPointer<UInt8>, to bytes: inout Sink) {
        // The 16 digits and the `@` made on the stack and appended at once
        // (`export` writes one per field of every task).
        let raw = UInt64(bitPattern: timestamp.rawValue)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 17) { digits in
            for i in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: raw >> UInt64(60 - 4 * i)) & 0xF
                digits[i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            digits[16] = UInt8(ascii: "@")
            bytes.appendBytes(UnsafeBufferPointer(digits))
        }
        bytes.appendBytes(replica)
    }

    /// Parses ``encoded``; nil for anything else.
    public init?(encoded: String) {
        let parts = encoded.split(separator: "@", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 16,
              let raw = UInt64(parts[0], radix: 16), raw <= UInt64(Int64.max),
              let replica = ReplicaID(String(parts[1])) else { return nil }
        self.init(timestamp: HybridTimestamp(rawValue: Int64(raw)), replica: replica)
    }

    public var description: String { encoded }
}
