import Foundation

/// The identity of one replica (one store on one machine). Made once per
/// store; replaced only when the store turns out to have been copied.
public struct ReplicaID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts any UUID spelling; stores the canonical lowercase form.
    public init?(_ string: String) {
        guard let canonical = CanonicalUUID.lowercased(string) else { return nil }
        self.rawValue = canonical
    }

    public static func make() -> ReplicaID { ReplicaID(UUID().uuidString)! }

    public var description: String { rawValue }
    public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool { lhs.rawValue < rhs.rawValue }
}
