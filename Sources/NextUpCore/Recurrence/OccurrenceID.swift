/// Which occurrence of which series a task is: the series' id (its first
/// occurrence's task id) and the occurrence's number, 1 for the first.
///
/// Contract: the task id of occurrence *n* (``taskID``) is a function of the
/// series id and *n* alone — the series id itself for the first, a
/// name-based id (``TaskID/stable(from:)``) of both for the others — so two
/// machines that complete occurrence *n* while apart both make occurrence
/// *n+1* under one id, and the merge sees one task. Distinct series or
/// numbers give distinct ids. The text form, `<series id>#<n>`, is what the
/// `occurrence` register holds; the derivation never changes once released.
public struct OccurrenceID: Hashable, Sendable, CustomStringConvertible {
    public let series: TaskID
    /// 1 for the series' first occurrence.
    public let number: Int

    public init(series: TaskID, number: Int) {
        precondition(number >= 1, "occurrences are numbered from 1")
        self.series = series
        self.number = number
    }

    /// The first occurrence of a series started from the task `id`.
    public static func first(of id: TaskID) -> OccurrenceID { OccurrenceID(series: id, number: 1) }

    /// The id of this occurrence's task. The number comes first in the
    /// hashed name, so that the ids of neighbouring occurrences differ from
    /// their first digits (the short ids people type).
    public var taskID: TaskID {
        number == 1 ? series : TaskID.stable(from: "nextup-occurrence:\(number):\(series.rawValue)")
    }

    /// The next occurrence of the series.
    public var next: OccurrenceID { OccurrenceID(series: series, number: number + 1) }

    /// `<series id>#<n>`.
    public var description: String { "\(series.rawValue)#\(number)" }

    /// Reads ``description``'s form; nil for anything else.
    public init?(_ text: String) {
        let bytes = text.utf8
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "#")) else { return nil }
        let digits = bytes[bytes.index(after: mark)...]
        guard (1...9).contains(digits.count), digits.first != UInt8(ascii: "0"),
              digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        let seriesText = String(text[..<mark])
        guard let series = TaskID(seriesText), series.rawValue == seriesText else { return nil }
        self.init(series: series, number: digits.reduce(0) { $0 * 10 + Int($1 &- UInt8(ascii: "0")) })
    }
}
