import Foundation

/// The identity of a task: a UUID made once, at creation, on the device that
/// created it, and never changed (DESIGN.md §1, §2).
///
/// Always held in canonical lowercase form so that prefixes compare simply.
public struct TaskID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts any UUID spelling; stores the canonical lowercase form.
    public init?(_ string: String) {
        guard let canonical = CanonicalUUID.lowercased(string) else { return nil }
        self.rawValue = canonical
    }

    /// The nil UUID: no task's identity (a new task's id is random), for a
    /// value that stands in for none — a placeholder left where a task was
    /// moved out.
    public static let zero = TaskID("00000000-0000-0000-0000-000000000000")!

    /// A fresh random identity.
    public static func make() -> TaskID {
        TaskID(UUID().uuidString)!
    }

    public var description: String { rawValue }
    /// The first eight characters, as shown in tables.
    public var short: String { String(rawValue.prefix(8)) }

    public static func < (lhs: TaskID, rhs: TaskID) -> Bool { lhs.rawValue < rhs.rawValue }
}
