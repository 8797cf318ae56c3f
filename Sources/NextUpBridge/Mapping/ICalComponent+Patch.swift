import NextUpCore

extension ICalComponent {
    /// The file for `task` made from `bytes`, the file as it is now (the
    /// phone's last version, or the bridge's last write): only the
    /// properties whose nextup value differs from the task's are replaced;
    /// every other line, parameter, fold, line end and component stays byte
    /// for byte. Nil when the file already says what the task says.
    ///
    /// Contract:
    /// - A property is compared through the nextup value it maps to, so a
    ///   value nextup holds more coarsely (`PRIORITY:2`, `STATUS:IN-PROCESS`,
    ///   a due time of day, a multi-line `SUMMARY`) stays as written while it
    ///   maps to the task's value; an `X-NEXTUP-…` property absent from the
    ///   file is written only when the task holds something its absence does
    ///   not say (an item made on the phone and never changed in nextup is
    ///   never rewritten).
    /// - A changed `DUE` takes `DTSTART`'s value type (and `TZID`), keeps
    ///   the local time of day the file had (written in that `TZID` when
    ///   the zone database knows it), and is never before `DTSTART` (which
    ///   moves to the due date when it was later).
    /// - Categories nextup cannot hold stay in `CATEGORIES`.
    /// - `DTSTART` is the defer date, written (in `DUE`'s shape) only once
    ///   the task has had one; `RRULE` is the series' rule, rewritten only
    ///   when it is not the task's rule (a rule anchored at the file's due
    ///   date counts as the same); when a series' due date moves, its
    ///   `RECURRENCE-ID` overrides dated before the new one (occurrences
    ///   nextup has closed) are removed.
    /// - When anything changed, `LAST-MODIFIED` and `DTSTAMP` become the
    ///   task's newest version time and `SEQUENCE` goes up by one.
    /// - Nil too when `bytes` hold no single master VTODO (the bridge skips
    ///   such a file).
    public static func patched(_ bytes: [UInt8], for task: TaskItem, zone: LocalZone = .system) -> String? {
        guard var roots = try? parse(bytes), let c = roots.firstIndex(where: { $0.name == "VCALENDAR" }),
              let t = roots[c].masterVTodoIndex, let before = try? VTodoView(vtodo: roots[c].components[t], zone: zone)
        else { return nil }
        var todo = roots[c].components[t]
        let want = VTodoView(task: task)
        var changed = false
        func set(_ names: [String], _ new: [ICalProperty]) {
            changed = true
            let at = todo.properties.firstIndex { names.contains($0.name) } ?? todo.properties.count
            let kept = todo.properties[..<at].filter { !names.contains($0.name) }.count
            todo.properties.removeAll { names.contains($0.name) }
            todo.properties.insert(contentsOf: new, at: kept)
        }
        /// `old` with a new value, keeping its parameters but `ALTREP` (which would describe the old text).
        func retexted(_ name: String, _ text: String) -> ICalProperty {
            var p = todo.property(name) ?? ICalProperty(name: name, value: "")
            p.parameters.removeAll { $0.name == "ALTREP" }
            p.value = ICalText.escape(text)
            return p
        }
        if before.title != want.title { set(["SUMMARY"], [retexted("SUMMARY", want.title)]) }
        if before.notes != want.notes { set(["DESCRIPTION"], want.notes.isEmpty ? [] : [retexted("DESCRIPTION", want.notes)]) }
        if before.importance != want.importance {
            set(["PRIORITY"], want.importance.map { [ICalProperty(name: "PRIORITY", value: ["9", "5", "1"][$0 - 1])] } ?? [])
        }
        if before.due != want.due { patchDue(todo, to: task.due, zone: zone, set: set) }
        // The defer date, once the task has had one (a phone's DTSTART stays until then).
        if task.deferDate != nil || task.versions[.deferDate] != nil,
           todo.property("DTSTART").flatMap({ ICalDate.localDate($0, zone: zone) }) != task.deferDate {
            set(["DTSTART"], task.deferDate.map { [dated($0, old: todo.property("DTSTART"), shape: todo.property("DTSTART") ?? todo.property("DUE"), zone: zone)] } ?? [])
        }
        if task.recur != nil || task.versions[.recur] != nil, !sameRule(before.rrule, task.recur, anchor: before.due) {
            set(["RRULE"], task.recur.map { [ICalProperty(name: "RRULE", value: $0.rrule)] } ?? [])
        }
        // Overrides of occurrences before the one the file now holds: closed in nextup.
        var overrides = roots[c].components.indices.filter { roots[c].components[$0].name == "VTODO" && $0 != t }
        if task.recur != nil, before.due != want.due, let due = task.due {
            overrides = overrides.filter { i in
                roots[c].components[i].property("RECURRENCE-ID").flatMap { ICalDate.localDate($0, zone: zone) }.map { $0 < due } ?? false
            }
            if !overrides.isEmpty { changed = true }
        } else {
            overrides = []
        }
        let doneBefore = before.completedAt != nil, doneNow = want.completedAt != nil
        let timeMoved = doneBefore && doneNow && before.completedAt != 0 && before.completedAt != want.completedAt
        if doneBefore != doneNow || before.cancelled != want.cancelled || timeMoved {
            var status: [ICalProperty] = [ICalProperty(name: "STATUS", value: want.cancelled ? "CANCELLED" : doneNow ? "COMPLETED" : "NEEDS-ACTION")]
            if !want.cancelled, !doneNow, !doneBefore, let old = todo.property("STATUS") { status = [old] }
            if let completed = want.completedAt {
                status.append(ICalProperty(name: "COMPLETED", value: ICalDate.formatUTC(millis: completed)))
                status.append(ICalProperty(name: "PERCENT-COMPLETE", value: "100"))
            } else if let percent = todo.property("PERCENT-COMPLETE"), percent.value.trimmingCharacters(in: .whitespaces) != "100" {
                status.append(percent)
            }
            set(["STATUS", "COMPLETED", "PERCENT-COMPLETE"], status)
        }
        // Without X-NEXTUP-CATEGORY, a reader takes the first category as the category.
        var firstCategory = before.categories.first ?? ""
        if Set(before.categories) != Set(want.categories) {
            firstCategory = want.categories.first ?? ""
            // Names nextup could not read stay as the file had them.
            let unreadable = todo.properties("CATEGORIES").flatMap(\.textList).filter { (try? TaskText.category($0)) == nil }
            let names = want.categories + unreadable
            set(["CATEGORIES"], names.isEmpty ? [] : [ICalProperty(name: "CATEGORIES", value: names.map(ICalText.escape).joined(separator: ","))])
        }
        for ext in VTodoView.Extension.allCases {
            let wanted = want[ext] ?? ""
            let same: Bool
            if let present = before[ext] {
                same = present == wanted
            } else {
                same = wanted == (ext == .category ? firstCategory : "")
            }
            if !same { set([ext.rawValue], [ICalProperty(name: ext.rawValue, text: wanted)]) }
        }
        guard changed else { return nil }
        // The versions the values written stand under (never a reason to write on its own).
        if let written = try? VTodoView(vtodo: todo, zone: zone) {
            set([VersionRecord.propertyName], VersionRecord(task: task, view: written).property.map { [$0] } ?? [])
        }
        let stamp = ICalDate.formatUTC(millis: max(task.modified.millis, task.created))
        let sequence = todo.property("SEQUENCE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) } ?? 0
        for (name, value) in [("LAST-MODIFIED", stamp), ("DTSTAMP", stamp), ("SEQUENCE", String(min(max(sequence, 0), Int(Int32.max) - 1) + 1))] {
            if let i = todo.properties.firstIndex(where: { $0.name == name }) {
                todo.properties[i].value = value
            } else {
                todo.properties.append(ICalProperty(name: name, value: value))
            }
        }
        roots[c].components[t] = todo
        for i in overrides.reversed() { roots[c].components.remove(at: i) }
        let lineEnd = bytes.firstIndex(of: 10).map { $0 > 0 && bytes[$0 - 1] == 13 ? "\r\n" : "\n" } ?? "\r\n"
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? "\u{FEFF}" : ""
        return bom + roots.map { $0.serialized(lineEnd: lineEnd) }.joined()
    }

    /// The index of the VTODO without `RECURRENCE-ID` among this calendar's
    /// components, when there is exactly one and every other VTODO (an
    /// override of one occurrence) has its `UID`.
    var masterVTodoIndex: Int? {
        let todos = components.indices.filter { components[$0].name == "VTODO" }
        let masters = todos.filter { components[$0].property("RECURRENCE-ID") == nil }
        guard masters.count == 1, let master = masters.first else { return nil }
        let uid = components[master].property("UID")?.value
        guard todos.allSatisfy({ components[$0].property("UID")?.value == uid }) else { return nil }
        return master
    }

    /// `old` (or a new property named as it) holding `date`: in `shape`'s
    /// value type, `TZID` or UTC, at `old`'s local time of day (else
    /// `shape`'s); a DATE when `shape` is none or a DATE.
    static func dated(_ date: DueDate, old: ICalProperty?, shape: ICalProperty?, zone: LocalZone) -> ICalProperty {
        let day: Int64 = 86_400_000
        func timeOfDay(_ property: ICalProperty) -> Int64? {
            guard ICalDate.timePart(property.value.trimmingCharacters(in: .whitespaces)) != nil,
                  let local = ICalDate.localWall(property, zone: zone) else { return nil }
            return ((local % day) + day) % day
        }
        var value = ICalDate.format(date)
        var parameters = [ICalParameter(name: "VALUE", values: ["DATE"])]
        if let shape, let shapeTime = timeOfDay(shape) {
            let clock = old.flatMap { timeOfDay($0) } ?? shapeTime
            let wall = date.epochDay * day + clock
            if shape.value.trimmingCharacters(in: .whitespaces).hasSuffix("Z") {
                value = ICalDate.formatUTC(millis: zone.utc(fromLocal: wall))
            } else if let named = shape.parameter("TZID").flatMap(LocalZone.named) {
                value = String(ICalDate.formatUTC(millis: named.local(fromUTC: zone.utc(fromLocal: wall))).dropLast())
            } else {
                value = String(ICalDate.formatUTC(millis: wall).dropLast())
            }
            parameters = shape.parameters.filter { $0.name != "VALUE" }
            if shape.parameter("VALUE") != nil { parameters.insert(ICalParameter(name: "VALUE", values: ["DATE-TIME"]), at: 0) }
        }
        var out = old ?? ICalProperty(name: "DTSTART", value: "")
        out.parameters = parameters
        out.value = value
        return out
    }

    /// Whether the file's rule (`written`, canonical) is `rule`, as written
    /// or anchored at the file's due date `anchor`.
    static func sameRule(_ written: String?, _ rule: RecurrenceRule?, anchor: String?) -> Bool {
        guard let written, let rule else { return written == nil && rule == nil }
        guard let read = try? RecurrenceRule.parseRRULE(written) else { return false }
        if read == rule { return true }
        guard !read.isAnchored, let anchor, let date = try? DueDate.parse(anchor) else { return false }
        return read.anchored(at: date) == rule
    }

    private static func patchDue(_ todo: ICalComponent, to due: DueDate?, zone: LocalZone,
                                 set: ([String], [ICalProperty]) -> Void) {
        guard let due else { set(["DUE"], []); return }
        let old = todo.property("DUE")
        let start = todo.property("DTSTART")
        // The shape to write: DTSTART's when there is one, else the old DUE's.
        let newDue = dated(due, old: old ?? ICalProperty(name: "DUE", value: ""), shape: start ?? old, zone: zone)
        let value = newDue.value
        // RFC 5545: DUE is later than DTSTART; a start after the new due date moves to it.
        if let start, let startDate = ICalDate.date(start.value.trimmingCharacters(in: .whitespaces)),
           let startAt = ICalDate.millis(start.value.trimmingCharacters(in: .whitespaces)), let dueAt = ICalDate.millis(value),
           startDate > due || (ICalDate.timePart(start.value) != nil && dueAt < startAt) {
            var moved = start
            moved.value = value
            set(["DTSTART"], [moved])
        }
        set(["DUE"], [newDue])
    }
}
