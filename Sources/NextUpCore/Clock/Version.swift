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
        appendEncoded(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``encoded``'s UTF-8.
    public func appendEncoded(to out: inout [UInt8]) {
        let raw = UInt64(bitPattern: timestamp.rawValue)
        // The digits and the `@` made in place, then appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 17) { text in
            Self.hexDigits.withUnsafeBufferPointer { digits in
                for i in 0..<16 { text[i] = digits[Int(raw >> UInt64(60 - 4 * i) & 0xF)] }
            }
            text[16] = UInt8(ascii: "@")
            out.append(contentsOf: text)
        }
        var replica = replica.rawValue
        replica.withUTF8 { out.append(contentsOf: $0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

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
