/// How long a task takes, in whole minutes, 1…10080 (one week).
///
/// Parses `30m`, `1h`, `1h30m`, `90` (minutes), `2d`; formats as `1h30m`.
public struct TaskDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let range: ClosedRange<Int> = 1...10_080
    public let minutes: Int

    public init(minutes: Int) throws {
        guard Self.range.contains(minutes) else {
            throw TaskInputError("duration must be between 1 minute and 7 days (10080 minutes), not \(minutes) minutes")
        }
        self.minutes = minutes
    }

    public static func parse(_ text: String) throws -> TaskDuration {
        let t = text.trimmingWhitespace().lowercased()
        let bad = TaskInputError("duration must look like 30m, 1h, 1h30m or 90 (minutes), not '\(Sanitizer.visible(text))'")
        guard !t.isEmpty, t.count <= 20 else { throw bad }
        if t.allSatisfy(\.isASCIIDigitChar) {
            guard let m = Int(t) else { throw bad }
            return try TaskDuration(minutes: m)
        }
        var total = 0
        var number = ""
        var seenUnits: Set<Character> = []
        var lastUnitRank = -1
        let ranks: [Character: (rank: Int, factor: Int)] = ["d": (0, 1440), "h": (1, 60), "m": (2, 1)]
        for ch in t {
            if ch.isASCIIDigitChar {
                number.append(ch)
            } else if let unit = ranks[ch] {
                guard let n = Int(number), !seenUnits.contains(ch), unit.rank > lastUnitRank else { throw bad }
                seenUnits.insert(ch)
                lastUnitRank = unit.rank
                let (product, overflow) = n.multipliedReportingOverflow(by: unit.factor)
                guard !overflow, product <= 1_000_000 else { throw bad }
                total += product
                number = ""
            } else {
                throw bad
            }
        }
        guard number.isEmpty else { throw bad }
        return try TaskDuration(minutes: total)
    }

    /// `45m`, `2h`, `1h30m`.
    public var description: String {
        let h = minutes / 60, m = minutes % 60
        switch (h, m) {
        case (0, _): return "\(m)m"
        case (_, 0): return "\(h)h"
        default: return "\(h)h\(m)m"
        }
    }

    public static func < (lhs: TaskDuration, rhs: TaskDuration) -> Bool { lhs.minutes < rhs.minutes }
}

extension Character {
    var isASCIIDigitChar: Bool { ("0"..."9").contains(self) }
}

import Foundation
