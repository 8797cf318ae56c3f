import NextUpCore
import NextUpStore

/// A series on the phone (DESIGN.md §5b): one VTODO under the series' `UID`
/// (its first occurrence's), holding the live occurrence with the series'
/// `RRULE`; `DTSTART` is the defer date.
///
/// Each way phones complete an occurrence is read as completing the live
/// occurrence *n* through ``NextUpStore/TaskStore/completeOccurrence(_:today:expecting:)``,
/// which makes *n+1* under its name-based id (two machines taking the same
/// completion write one row):
/// - **the due date moved in place** to a later date of the rule, not
///   completed (tasks.org): the occurrences up to that date are completed;
/// - **a completed `RECURRENCE-ID` override** dated as the live occurrence
///   (its due date, or its defer date when the file has `DTSTART`)
///   (Thunderbird, eM Client): that occurrence is completed, and the next
///   while an override names it;
/// - **the item itself completed**, its `RRULE` kept or dropped (Apple
///   Reminders, Evolution), while its due date is the live occurrence's:
///   that occurrence is completed; the new item such a phone makes for the
///   next occurrence (a `UID` never seen, the same rule and title, the
///   due date of a live later occurrence) is that occurrence: its file is
///   removed and no task is made, so the series' `UID` lives on in one file.
///
/// A completion's own edits (status, due and defer dates, the rule) are
/// explained by the completion and not taken; the file's other edits are
/// written to the occurrence before it is completed, so its successor
/// carries them. A file that still shows an occurrence nextup has closed
/// (its due date unchanged since last seen, and a closed occurrence's)
/// gives only its other edits, to the live occurrence.
extension BridgeCycle {
    /// Indexes the live occurrence of every series (``liveOf``): the open
    /// one with the highest number, else the highest number.
    mutating func indexSeries() {
        var best: [TaskID: TaskItem] = [:]
        for task in tasks.values {
            guard let occurrence = task.occurrence else { continue }
            if let held = best[occurrence.series] {
                let rank = { (t: TaskItem) in (t.isOpen ? 1 : 0, t.occurrence?.number ?? 0) }
                if rank(task) < rank(held) { continue }
            }
            best[occurrence.series] = task
        }
        liveOf = best.mapValues(\.id)
    }

    /// The task a file's `UID` stands for: the live occurrence when it
    /// names a series.
    func fileTask(_ uid: String) -> TaskID {
        let id = TaskID.forVTodoUID(uid)
        guard let series = tasks[id]?.occurrence?.series, let live = liveOf[series] else { return id }
        return live
    }

    /// The `UID` of `task`'s file: its series' for an occurrence.
    func fileUID(_ task: TaskItem) -> String {
        guard let series = task.occurrence?.series, series != task.id else { return task.vtodoUID }
        return tasks[series]?.vtodoUID ?? series.rawValue
    }

    /// The person's local date now.
    var today: DueDate {
        let wall = bridge.zone.local(fromUTC: now)
        return DueDate(epochDay: wall >= 0 ? wall / 86_400_000 : (wall - 86_399_999) / 86_400_000)
    }

    /// `fields` with a rule anchored at the file's due date and, for a task
    /// that is no occurrence yet, the series it starts
    /// (``NextUpCore/RecurrenceStep/starting(_:on:)``).
    static func startingSeries(_ fields: [(TaskField, FieldValue)], view: VTodoView, task: TaskItem) -> [(TaskField, FieldValue)] {
        let anchor = view.due.flatMap { try? DueDate.parse($0) } ?? task.due
        let anchored = fields.map { field, value -> (TaskField, FieldValue) in
            guard field == .recur, let text = value.stringValue, let rule = try? RecurrenceRule.parseRRULE(text),
                  !rule.isAnchored, let anchor else { return (field, value) }
            return (field, .string(rule.anchored(at: anchor).rrule))
        }
        return RecurrenceStep.starting(anchored, on: task)
    }

    /// How many occurrences of `live`'s series the file completes, and its
    /// edits without those the completion (or an occurrence closed here)
    /// explains. See the type's contract.
    func seriesSteps(_ view: VTodoView, base: VTodoView?, bytes: [UInt8], live: TaskItem,
                     fields: [(TaskField, FieldValue)]) -> (Int, [(TaskField, FieldValue)]) {
        guard let rule = live.recur, let occurrence = live.occurrence, let base else { return (0, fields) }
        let schedule = RecurrenceSchedule(rule)
        let fileDue = view.due.flatMap { try? DueDate.parse($0) }
        var count = 0
        if live.isOpen, let due = live.due {
            // Thunderbird, eM Client: a completed override per occurrence.
            let done = Self.completedOverrides(bytes, zone: bridge.zone)
            let lead = live.deferDate.map { due.epochDay - $0.epochDay }
            var at: DueDate? = due, number = occurrence.number
            while let d = at, count < Self.maxSteps,
                  done.contains(d) || lead.map({ done.contains(DueDate(epochDay: d.epochDay - $0)) }) == true {
                count += 1
                at = schedule.successor(of: number, due: d, doneOn: today)
                number += 1
            }
            // Apple Reminders, Evolution: the item itself completed.
            if count == 0, view.completedAt != nil, base.completedAt == nil, fileDue == due { count = 1 }
            // tasks.org: the due date moved forward in place to a date of the rule.
            if count == 0, view.completedAt == nil, view.rrule != nil, base.due != view.due, let fileDue, fileDue > due {
                var d = due, n = occurrence.number, k = 0
                while k < Self.maxSteps, let next = schedule.successor(of: n, due: d, doneOn: today), next <= fileDue {
                    k += 1
                    n += 1
                    d = next
                    if next == fileDue { count = k }
                }
            }
        }
        let closed = view.due == base.due && fileDue.map { d in
            tasks.values.contains { $0.occurrence?.series == occurrence.series && $0.id != live.id && !$0.isOpen && $0.due == d }
        } ?? false
        guard count > 0 || closed else { return (0, fields) }
        let explained: Set<TaskField> = [.done, .deleted, .due, .deferDate, .recur, .occurrence]
        return (count, fields.filter { !explained.contains($0.0) })
    }

    /// The most occurrences one file completes at once.
    static let maxSteps = 1000

    /// Completes `count` occurrences from the live one `id`, each with the
    /// versions the cycle holds of it.
    mutating func completeOccurrences(from id: TaskID, _ count: Int) throws {
        var current = id
        for _ in 0..<count {
            guard let task = tasks[current] else { return }
            var seen: [TaskField: Version?] = [:]
            for (field, version) in task.versions { seen[field] = .some(version) }
            let step = try store.completeOccurrence(current, today: today, expecting: seen)
            tasks[current] = step.task
            guard let next = step.successor else { return }
            tasks[next.id] = next
            if let series = next.occurrence?.series { liveOf[series] = next.id }
            current = next.id
        }
    }

    /// Whether a new item is the next occurrence of a series that a phone
    /// made when it completed the previous one (see the type's contract);
    /// if so its file is removed (unless a client wrote it since this cycle
    /// looked at it).
    mutating func joinsSeries(_ view: VTodoView, file: String) -> Bool {
        guard let text = view.rrule, let read = try? RecurrenceRule.parseRRULE(text), view.completedAt == nil, !view.cancelled,
              let due = view.due.flatMap({ try? DueDate.parse($0) }) else { return false }
        let rule = read.isAnchored ? read : read.anchored(at: due)
        let live = liveOf.values.sorted().compactMap { tasks[$0] }.first {
            $0.isOpen && $0.recur == rule && ($0.occurrence?.number ?? 1) > 1 && $0.due == due && $0.title == view.title
        }
        guard let live else { return false }
        if folder.stamp(file) != seenStamps[file] { return false }
        do {
            try folder.remove(file)
        } catch {
            report.skipped.append("\(Sanitizer.visible(file)): \(Sanitizer.visible("\(error)"))")
            return true
        }
        report.removed += 1
        report.notices.append("\(Sanitizer.visible(file)): the phone's next “\(Sanitizer.visible(view.title))” is occurrence \(live.occurrence?.number ?? 0) of its series; kept as one item")
        fileOf[view.uid] = nil
        return true
    }

    /// The local dates of an item's completed `RECURRENCE-ID` overrides.
    static func completedOverrides(_ bytes: [UInt8], zone: LocalZone) -> Set<DueDate> {
        guard let calendar = (try? ICalComponent.parse(bytes))?.first(where: { $0.name == "VCALENDAR" }),
              let master = calendar.masterVTodoIndex else { return [] }
        var out: Set<DueDate> = []
        for (i, todo) in calendar.components.enumerated() where i != master && todo.name == "VTODO" {
            let status = todo.property("STATUS")?.value.trimmingCharacters(in: .whitespaces).uppercased()
            guard status == "COMPLETED" || (status == nil && todo.property("COMPLETED") != nil),
                  let date = todo.property("RECURRENCE-ID").flatMap({ ICalDate.localDate($0, zone: zone) }) else { continue }
            out.insert(date)
        }
        return out
    }
}
