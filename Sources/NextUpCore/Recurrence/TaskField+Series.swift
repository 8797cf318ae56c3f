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

    /// What this field's ``series(_:)`` register holds for the series' value
    /// `value`: the value itself, or `false` for a field the series leaves
    /// unset (null is "no series' value held"; none of these fields but a
    /// tag holds a boolean, and a tag is never null).
    public func seriesRegister(holding value: FieldValue) -> FieldValue {
        value == .null && tagName == nil ? .bool(false) : value
    }

    /// The series' value this field's ``series(_:)`` register holds (see
    /// ``seriesRegister(holding:)``); nil when it holds none.
    public func seriesValue(in register: FieldValue) -> FieldValue? {
        if register == .null { return nil }
        return register == .bool(false) && tagName == nil ? .null : register
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
