extension RecurrenceStep {
    /// The fields a write sets on `task`, made whole for a series: a rule
    /// (`recur`) is anchored at the task's due date — the one written with
    /// it, else the one it has (``RecurrenceRule/anchored(at:)``) — and a
    /// rule set on a task that is not an occurrence yet starts a series
    /// under the task's own id (``OccurrenceID/first(of:)``). A rule
    /// cleared leaves `occurrence` as it is, so the task's history stays
    /// one series'. Fields that set no rule come back unchanged.
    public static func starting(_ fields: [(TaskField, FieldValue)], on task: TaskItem) -> [(TaskField, FieldValue)] {
        guard let index = fields.lastIndex(where: { $0.0 == .recur }),
              let text = fields[index].1.stringValue, let rule = try? RecurrenceRule.parseRRULE(text) else { return fields }
        var fields = fields
        let due = fields.last { $0.0 == .due }.map { $0.1.stringValue.flatMap { try? DueDate.parse($0) } } ?? task.due
        if let due, !rule.isAnchored { fields[index].1 = .string(rule.anchored(at: due).rrule) }
        if task.occurrence == nil, !fields.contains(where: { $0.0 == .occurrence }) {
            fields.append((.occurrence, .string(OccurrenceID.first(of: task.id).description)))
        }
        return fields
    }

    /// The first due date of a series a write starts on `task` without a
    /// due date (none written, none held): the rule's first date on or
    /// after `today` (``RecurrenceSchedule/first(onOrAfter:)``). Nil when
    /// the write sets no rule or a due date is known.
    public static func firstDue(_ fields: [(TaskField, FieldValue)], on task: TaskItem?, today: DueDate) -> DueDate? {
        guard let text = fields.last(where: { $0.0 == .recur })?.1.stringValue, let rule = try? RecurrenceRule.parseRRULE(text),
              !fields.contains(where: { $0.0 == .due && $0.1 != .null }), task?.due == nil else { return nil }
        return RecurrenceSchedule(rule).first(onOrAfter: today)
    }

    /// What a successor not yet made must also be written with: a stop
    /// marks the next occurrence's id deleted (so one made apart on another
    /// machine arrives deleted); when the rule was set again on the
    /// occurrence after that mark, the series goes on and the successor is
    /// made alive. Nothing otherwise.
    public static func restarting(_ unborn: TaskItem, after occurrence: TaskItem) -> [(TaskField, FieldValue)] {
        guard unborn.deleted, let mark = unborn.versions[.deleted], let rule = occurrence.versions[.recur], mark < rule else { return [] }
        return [(.deleted, .bool(false))]
    }
}

extension RecurrenceStep {
    /// The fields an edit of `task` writes, made whole for "this one only" or
    /// "the series". On an open occurrence of a running series, for each
    /// field that may be this one's own (``TaskField/canBeThisOnly``):
    /// - `thisOnly`: a field that changes keeps the series' value in its
    ///   ``TaskField/series(_:)`` register, written when it holds none yet
    ///   (once written, it changes only by an edit of the series);
    /// - otherwise the edit is the series': a register it finds is set to
    ///   the new value, so the successor takes it.
    /// A field is this one's own while its register differs from its value
    /// (``TaskItem/thisOnlyFields``). Any other task, or field, comes back
    /// unchanged.
    public static func editing(_ fields: [(TaskField, FieldValue)], on task: TaskItem, thisOnly: Bool) -> [(TaskField, FieldValue)] {
        guard task.isRecurring, task.occurrence != nil, task.isOpen else { return fields }
        var registers: [TaskField: FieldValue] = [:]
        for (field, value) in fields where field.canBeThisOnly {
            let register = TaskField.series(field)
            let held = field.seriesValue(in: task.extra[register] ?? .null)
            if thisOnly {
                if held == nil, task.value(of: field) != value { registers[register] = field.seriesRegister(holding: task.value(of: field)) }
            } else if let held, held != value {
                registers[register] = field.seriesRegister(holding: value)
            }
        }
        return fields + registers.keys.sorted().map { ($0, registers[$0]!) }
    }
}
