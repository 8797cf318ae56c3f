extension TaskField {
    /// A series' rule, its canonical RRULE text (``RecurrenceRule/rrule``);
    /// null once the series is stopped. Until the field table names it, an
    /// opaque register like any other.
    public static let recur = TaskField(rawValue: "recur")!
    /// Which occurrence of which series the task is (``OccurrenceID``'s text).
    public static let occurrence = TaskField(rawValue: "occurrence")!
}
