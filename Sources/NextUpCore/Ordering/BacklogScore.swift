/// The Backlog's ranking score, in the spirit of Taskwarrior's urgency
/// (DESIGN.md §2). Higher ranks first. A pure function of the task and `now`.
public enum BacklogScore {
    public static let dueCoefficient = 12.0
    public static let ageCoefficient = 2.0
    public static let urgentTerm = 8.0
    public static let dayMillis = 86_400_000.0

    public static func importanceTerm(_ importance: Importance?) -> Double {
        switch importance {
        case .high: return 6.0
        case .medium: return 3.9
        case .low: return 1.8
        case nil: return 0
        }
    }

    /// Taskwarrior's due term, 0.2…1.0: it rises linearly from two weeks before
    /// the due date to a week after it.
    public static func dueTerm(_ due: DueDate?, nowMillis: Int64) -> Double {
        guard let due else { return 0 }
        let daysOverdue = (Double(nowMillis) - Double(due.epochDay) * dayMillis) / dayMillis
        if daysOverdue >= 7 { return 1.0 }
        if daysOverdue >= -14 { return (daysOverdue + 14) * 0.8 / 21 + 0.2 }
        return 0.2
    }

    public static func ageTerm(createdMillis: Int64, nowMillis: Int64) -> Double {
        let days = max(0, Double(nowMillis - createdMillis) / dayMillis)
        return min(days / 365, 1)
    }

    public static func score(_ task: TaskItem, nowMillis: Int64) -> Double {
        importanceTerm(task.importance)
            + (task.urgency == .urgent ? urgentTerm : 0)
            + dueCoefficient * dueTerm(task.due, nowMillis: nowMillis)
            + ageCoefficient * ageTerm(createdMillis: task.created, nowMillis: nowMillis)
    }
}
