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
        let hex = String(UInt64(bitPattern: timestamp.rawValue), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "@" + replica.rawValue
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
