/// The Backlog's ranking score, in the spirit of Taskwarrior's urgency
/// (DESIGN.md §2). Higher ranks first. A pure function of the task and `now`.
///
/// Every number of the formula is one of the constants below.
public enum BacklogScore {
    public static let dueCoefficient = 12.0
    public static let ageCoefficient = 2.0
    public static let urgentTerm = 8.0
    public static let dayMillis = 86_400_000.0
    /// The due term is `dueFloor` up to `dueRampStartDays` overdue (negative:
    /// before the due date), then rises by `dueRise` in a straight line to
    /// `dueRampEndDays` overdue, and stays at `dueFloor + dueRise` after.
    public static let dueRampStartDays = -14.0
    public static let dueRampEndDays = 7.0
    public static let dueFloor = 0.2
    public static let dueRise = 0.8
    /// The age term reaches 1 at this age.
    public static let ageFullDays = 365.0

    /// The importance term, for every importance (unset: 0).
    public static func importanceTerm(_ importance: Importance?) -> Double {
        switch importance {
        case .high: return 6.0
        case .medium: return 3.9
        case .low: return 1.8
        case nil: return 0.0
        }
    }

    /// Taskwarrior's due term, 0.2…1.0: it rises linearly from two weeks before
    /// the due date to a week after it.
    public static func dueTerm(_ due: DueDate?, nowMillis: Int64) -> Double {
        guard let due else { return 0.0 }
        let daysOverdue = (Double(nowMillis) - Double(due.epochDay) * dayMillis) / dayMillis
        if daysOverdue >= dueRampEndDays { return dueFloor + dueRise }
        if daysOverdue >= dueRampStartDays {
            return (daysOverdue - dueRampStartDays) * dueRise / (dueRampEndDays - dueRampStartDays) + dueFloor
        }
        return dueFloor
    }

    public static func ageTerm(createdMillis: Int64, nowMillis: Int64) -> Double {
        let days = max(0.0, Double(nowMillis - createdMillis) / dayMillis)
        return min(days / ageFullDays, 1.0)
    }

    public static func score(_ task: TaskItem, nowMillis: Int64) -> Double {
        score(RankKey(task), nowMillis: nowMillis)
    }

    /// The score of the task `key` was made from.
    public static func score(_ key: RankKey, nowMillis: Int64) -> Double {
        importanceTerm(key.importance)
            + (key.urgency == .urgent ? urgentTerm : 0.0)
            + dueCoefficient * dueTerm(key.due, nowMillis: nowMillis)
            + ageCoefficient * ageTerm(createdMillis: key.created, nowMillis: nowMillis)
    }
}
