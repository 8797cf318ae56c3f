import Foundation

/// The source of physical time. Injected everywhere time is read, so tests can
/// drive it; merge logic never reads a clock at all.
public protocol PhysicalClock: Sendable {
    /// Milliseconds since the Unix epoch.
    func nowMillis() -> Int64
}

/// The machine's wall clock.
public struct SystemClock: PhysicalClock {
    public init() {}
    public func nowMillis() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// A clock that reads a fixed value, optionally offset; for tests.
public struct FixedClock: PhysicalClock {
    public var millis: Int64
    public init(millis: Int64) { self.millis = millis }
    public func nowMillis() -> Int64 { millis }
}
