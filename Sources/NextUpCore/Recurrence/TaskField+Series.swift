extension TaskField {
    /// The prefix of the registers that hold a series' value of a field its
    /// open occurrence changed for itself only ("this one only").
    public static let seriesPrefix = "series:"

    /// The register holding the series' value of `field` on an occurrence
    /// whose own value of it is "this one only" (`series:title`,
    /// `series:tag:home`). Null, or absent, when the occurrence's value is
    /// the series'.
    public static func series(_ field: TaskField) -> TaskField {
        TaskField(rawValue: seriesPrefix + field.rawValue)!
    }

    /// The field whose series' value this register holds; nil for any other.
    public var seriesOf: TaskField? {
        guard rawValue.hasPrefix(Self.seriesPrefix) else { return nil }
        return TaskField(rawValue: String(rawValue.dropFirst(Self.seriesPrefix.count)))
    }

    /// Whether an occurrence may hold its own value of this field, apart
    /// from its series': the fields a successor takes (``RecurrenceStep/carried``),
    /// its tags, its due and defer dates.
    public var canBeThisOnly: Bool {
        RecurrenceStep.carried.contains(self) || self == .due || self == .deferDate || tagName != nil
    }
}
