/// Every field of a task that can change, each with its own version.
///
/// The raw values are the field names used in the peer-folder log and in the
/// store's version map; they never change once released.
public enum TaskField: String, CaseIterable, Sendable, Codable, Comparable {
    case title
    case notes
    case urgency
    case importance
    case duration
    case category
    case due
    /// The completion time in milliseconds, or null when not done.
    case done
    /// The Next Up order key, or null when the task is in the Backlog.
    case nextUp = "next_up"
    case deleted
    case created
    case source
    case externalID = "external_id"

    /// The fields that make a task TBD while any is unset.
    public static let triage: [TaskField] = [.urgency, .importance, .duration, .category]

    /// Whether `value` is a well-formed value for this field. Values failing this
    /// (from a damaged or hostile log) are never merged.
    public func accepts(_ value: FieldValue) -> Bool {
        switch (self, value) {
        case (.title, .string(let s)): return !s.isEmpty && TaskText.fits(s, characters: TaskText.maxTitleLength, bytes: TaskText.maxTitleBytes)
        case (.notes, .string(let s)): return TaskText.fits(s, characters: TaskText.maxNotesLength, bytes: TaskText.maxNotesBytes)
        case (.urgency, .null), (.importance, .null), (.duration, .null), (.category, .null),
             (.due, .null), (.done, .null), (.nextUp, .null), (.source, .null), (.externalID, .null):
            return true
        case (.urgency, .string(let s)): return Urgency(rawValue: s) != nil
        case (.importance, .int(let n)): return Importance(rawValue: Int(n)) != nil
        case (.duration, .int(let n)): return TaskDuration.range.contains(Int(n))
        case (.category, .string(let s)): return !s.isEmpty && TaskText.fits(s, characters: TaskText.maxCategoryLength, bytes: TaskText.maxCategoryBytes)
        case (.due, .string(let s)): return (try? DueDate.parse(s))?.description == s
        case (.done, .int(let n)), (.created, .int(let n)): return n >= 0
        case (.nextUp, .string(let s)): return OrderKey.isValid(s)
        case (.deleted, .bool): return true
        case (.source, .string(let s)), (.externalID, .string(let s)): return TaskText.fits(s, characters: TaskText.maxLabelLength, bytes: TaskText.maxLabelBytes)
        default: return false
        }
    }

    public static func < (lhs: TaskField, rhs: TaskField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
