/// A hybrid logical clock reading: physical milliseconds since the Unix epoch
/// in the high 48 bits, a logical counter in the low 16 bits.
///
/// Packing both into one integer makes the order a plain integer order, and a
/// counter overflow simply carries into the next millisecond.
///
/// Arithmetic never traps: physical times beyond ``maxMillis`` are clamped,
/// and the successor of the greatest timestamp is itself. (Timestamps that far
/// ahead never reach a clock: see ``HybridClock/isBeyondSaneFuture(_:now:)``.)
public struct HybridTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let counterBits: Int64 = 16
    public let rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    public init(millis: Int64, counter: Int64 = 0) {
        self.rawValue = (min(millis, Self.maxMillis) << Self.counterBits) | (counter & 0xFFFF)
    }

    public static let zero = HybridTimestamp(rawValue: 0)
    /// The greatest physical time a timestamp can hold (about the year 6400).
    public static let maxMillis: Int64 = Int64.max >> counterBits
    /// The greatest timestamp.
    public static let greatest = HybridTimestamp(rawValue: Int64.max)

    /// Physical part, in milliseconds since the epoch.
    public var millis: Int64 { rawValue >> Self.counterBits }
    /// Logical part.
    public var counter: Int64 { rawValue & 0xFFFF }

    /// The smallest timestamp greater than this one.
    /// (The greatest timestamp is its own successor: never an overflow trap.)
    public var successor: HybridTimestamp { rawValue == Int64.max ? self : HybridTimestamp(rawValue: rawValue + 1) }

    public var description: String { "\(millis).\(counter)" }

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool { lhs.rawValue < rhs.rawValue }
}
