extension TaskItem {
    /// The fields this occurrence holds for itself only, in field order: each
    /// has a non-null ``TaskField/series(_:)`` register that differs from
    /// its own value.
    public var thisOnlyFields: [TaskField] {
        extra.compactMap { register, held in
            guard let field = register.seriesOf, let series = field.seriesValue(in: held), value(of: field) != series else { return nil }
            return field
        }.sorted()
    }

    /// The occurrence as its series has it: each "this one only" field holds
    /// the series' value (its ``TaskField/series(_:)`` register). What a
    /// successor is made from.
    public var seriesView: TaskItem {
        var task = self
        for field in thisOnlyFields {
            if let held = extra[TaskField.series(field)], let value = field.seriesValue(in: held) { task.restore(field, to: value) }
        }
        return task
    }
}
