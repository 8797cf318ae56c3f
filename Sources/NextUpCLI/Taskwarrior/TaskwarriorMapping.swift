import Foundation
import NextUpCore

/// Taskwarrior ↔ nextup, both ways (README, "Coming from Taskwarrior").
///
/// In: `description` → title; `annotations` → notes, one line each with its
/// date (and kept for the way back); `priority` H/M/L → importance 3/2/1;
/// `project` → category (the whole project, or its first segment), the
/// project kept; `tags` → tags, case kept, and `next` (or a set `start`) →
/// Next Up; `due` → the due date in the local time zone; `status`
/// pending/waiting → open, completed → done at `end`, deleted → deleted,
/// recurring templates → kept hidden (deleted) for the way back; `entry` →
/// created; `modified` → the version time of every imported field; urgency and
/// duration from a tag or UDA the user names; every other attribute (UDAs,
/// `wait`, `scheduled`, `until`, `depends`, …) kept as an opaque field
/// `tw.<name>` and written back. Each task keeps its `uuid` as its id.
///
/// Out: the same, reversed; what nextup did not change goes back exactly as
/// it came (project, due time, annotations, priority letters, every kept
/// attribute), so Taskwarrior → nextup → Taskwarrior gives the same tasks.
enum TaskwarriorMapping {
    struct Options {
        /// Category from the whole project (`Home.Garden`) or its first segment (`Home`).
        var categoryFromFirstSegment = false
        /// A tag or UDA that marks a task urgent.
        var urgencyFrom: String?
        /// A UDA holding the duration (minutes, or ISO 8601 like `PT1H30M`).
        var durationFrom: String?
        /// The local calendar (dates and annotation times are local), made once.
        let calendar: Calendar
        let noteTime: DateFormatter

        init(categoryFromFirstSegment: Bool = false, urgencyFrom: String? = nil, durationFrom: String? = nil,
             timeZone: TimeZone = .current) {
            self.categoryFromFirstSegment = categoryFromFirstSegment
            self.urgencyFrom = urgencyFrom
            self.durationFrom = durationFrom
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            self.calendar = calendar
            noteTime = DateFormatter()
            noteTime.locale = Locale(identifier: "en_US_POSIX")
            noteTime.timeZone = timeZone
            noteTime.dateFormat = "yyyy-MM-dd HH:mm"
        }
    }

    static let source = "taskwarrior"
    /// The prefix of kept Taskwarrior attributes among a task's opaque fields.
    static let kept = "tw."

    // MARK: In

    static func record(_ t: TaskwarriorTask, _ options: Options) throws -> TaskJSON {
        var r = TaskJSON(title: t.description)
        r.id = t.uuid.rawValue
        r.source = source
        r.externalID = t.uuid.rawValue
        r.created = t.entry.map(Timestamps.rfc3339)
        r.modified = (t.modified ?? t.entry).map(Timestamps.rfc3339)
        var extra: [String: FieldValue] = [:]
        func keep(_ name: String, _ json: String) { extra[kept + name] = .string(json) }
        for (name, json) in t.other { keep(name, json) }

        if !t.annotations.isEmpty {
            r.notes = notes(t.annotations, options)
            keep("annotations", annotationsJSON(t.annotations))
        }
        switch t.priority {
        case "H": r.importance = 3
        case "M": r.importance = 2
        case "L": r.importance = 1
        case let other?: keep("priority", jsonString(other))
        case nil: break
        }
        if let project = t.project {
            keep("project", jsonString(project))
            let category = options.categoryFromFirstSegment ? String(project.split(separator: ".").first ?? Substring(project)) : project
            r.category = String(category.prefix(TaskText.maxCategoryLength))
        }
        r.tags = t.tags
        if t.tags.count > 1 { keep("tags", "[" + t.tags.map(jsonString).joined(separator: ",") + "]") }
        r.nextUp = t.tags.contains("next") || t.start != nil
        if let start = t.start { keep("start", jsonString(TaskwarriorDate.format(start))) }
        if let due = t.due {
            r.due = localDate(due, options).description
            keep("due", jsonString(TaskwarriorDate.format(due)))
        }
        switch t.status {
        case .pending, .waiting: r.done = false; r.deleted = false
        case .completed:
            r.done = true
            r.completedAt = Timestamps.rfc3339(t.end ?? t.modified ?? t.entry ?? 0)
        case .deleted: r.deleted = true
        case .recurring: r.deleted = true  // a template: hidden, kept for the way back
        }
        if t.status != .pending { keep("status", jsonString(t.status.rawValue)) }
        if let end = t.end, t.status != .completed { keep("end", jsonString(TaskwarriorDate.format(end))) }
        if let name = options.urgencyFrom {
            if t.tags.contains(name) { r.urgency = "urgent" }
            else if let value = t.other[name] { r.urgency = truthy(value) ? "urgent" : "not-urgent" }
        }
        if let name = options.durationFrom, let value = t.other[name] {
            guard let minutes = minutes(value) else {
                throw TaskInputError("\(t.uuid.short): '\(name)' is not a duration (\(Sanitizer.visible(value)); expected minutes or PT1H30M)")
            }
            r.duration = minutes
        }
        r.extra = extra.isEmpty ? nil : extra
        return r
    }

    /// One line per annotation: `YYYY-MM-DD HH:MM  text` in local time.
    static func notes(_ annotations: [TaskwarriorTask.Annotation], _ options: Options) -> String {
        annotations.map { "\(noteTime($0.entry, options))  \($0.description)" }.joined(separator: "\n")
    }

    /// `yyyy-MM-dd HH:mm` of `millis` in the options' time zone: what
    /// `options.noteTime` writes, made from the zone's offset at that instant
    /// and the civil date (a DateFormatter per annotation was a twentieth of
    /// an import). Dates before the Gregorian calendar's start (1583) or
    /// past 9999 are left to the formatter, whose calendar is Julian before it.
    static func noteTime(_ millis: Int64, _ options: Options) -> String {
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let offset = Int64(options.calendar.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        let local = seconds + offset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let rest = Int(local - days * 86_400)
        let (y, m, d) = CivilDate.civil(days: days)
        guard (1583...9999).contains(y) else { return options.noteTime.string(from: Date(timeIntervalSince1970: Double(millis) / 1000)) }
        return String(unsafeUninitializedCapacity: 16) { b in
            FixedDigits.put(y, width: 4, into: b, at: 0)
            b[4] = UInt8(ascii: "-")
            FixedDigits.put(m, width: 2, into: b, at: 5)
            b[7] = UInt8(ascii: "-")
            FixedDigits.put(d, width: 2, into: b, at: 8)
            b[10] = UInt8(ascii: " ")
            FixedDigits.put(rest / 3600, width: 2, into: b, at: 11)
            b[13] = UInt8(ascii: ":")
            FixedDigits.put(rest / 60 % 60, width: 2, into: b, at: 14)
            return 16
        }
    }

    static func localDate(_ millis: Int64, _ options: Options) -> DueDate {
        let c = options.calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(millis) / 1000))
        return (try? DueDate(year: c.year!, month: c.month!, day: c.day!)) ?? DueDate(epochDay: millis / 86_400_000)
    }

    static func truthy(_ json: String) -> Bool {
        let v = json.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).lowercased()
        return !["", "0", "no", "false", "n", "not-urgent", "null"].contains(v)
    }

    /// Minutes from `90`, `"90"`, `"PT1H30M"`, `"P1D"` …; nil for anything else.
    static func minutes(_ json: String) -> Int? {
        let v = json.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).uppercased()
        if let n = Int(v), TaskDuration.range.contains(n) { return n }
        guard v.hasPrefix("P") else { return nil }
        var total = 0, number = 0, inTime = false, sawDigit = false
        for c in v.dropFirst() {
            if let d = c.wholeNumberValue { number = number * 10 + d; sawDigit = true; continue }
            switch (c, inTime) {
            case ("T", false): inTime = true; continue
            case ("W", false): total += number * 7 * 1440
            case ("D", false): total += number * 1440
            case ("H", true): total += number * 60
            case ("M", true): total += number
            case ("S", true): total += number / 60
            default: return nil
            }
            number = 0
        }
        return sawDigit && number == 0 && TaskDuration.range.contains(total) ? total : nil
    }

    static func jsonString(_ s: String) -> String {
        var out: [UInt8] = []
        JSONText.appendString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func annotationsJSON(_ list: [TaskwarriorTask.Annotation]) -> String {
        "[" + list.map { "{\"description\":\(jsonString($0.description)),\"entry\":\"\(TaskwarriorDate.format($0.entry))\"}" }
            .joined(separator: ",") + "]"
    }

    // MARK: Out

    /// The Taskwarrior object of a task, as `task import` reads it.
    static func object(_ t: TaskItem, _ options: Options) -> [String: Any] {
        var o: [String: Any] = [:]
        var keptValues: [String: Any] = [:]
        for (field, value) in t.extra {
            guard field.rawValue.hasPrefix(kept), case .string(let json) = value,
                  let parsed = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) else { continue }
            keptValues[String(field.rawValue.dropFirst(kept.count))] = parsed
        }
        o["uuid"] = t.id.rawValue
        o["description"] = t.title
        o["entry"] = TaskwarriorDate.format(t.created)
        o["modified"] = TaskwarriorDate.format(t.modified.millis)
        let keptStatus = keptValues["status"] as? String
        if t.deleted {
            o["status"] = keptStatus == "recurring" ? "recurring" : "deleted"
        } else if let done = t.completedAt {
            o["status"] = "completed"
            o["end"] = TaskwarriorDate.format(done)
        } else {
            o["status"] = keptStatus == "waiting" ? "waiting" : "pending"
        }
        if o["end"] == nil, let end = keptValues["end"] { o["end"] = end }
        // Priority: the letter back, or a kept custom value.
        switch t.importance {
        case .high: o["priority"] = "H"
        case .medium: o["priority"] = "M"
        case .low: o["priority"] = "L"
        case nil: if let p = keptValues["priority"] { o["priority"] = p }
        }
        if let category = t.category {
            let project = keptValues["project"] as? String
            let derived = project.map { options.categoryFromFirstSegment ? String($0.split(separator: ".").first ?? "") : $0 }
            o["project"] = derived == category ? project : category
        }
        if !t.tags.isEmpty {
            // Taskwarrior's own order while the set is the same.
            let keptTags = keptValues["tags"] as? [String]
            o["tags"] = keptTags.map(Set.init) == Set(t.tags) ? keptTags : t.tags
        }
        if let due = t.due {
            let keptDue = (keptValues["due"] as? String).flatMap(TaskwarriorDate.parse)
            if let keptDue, localDate(keptDue, options) == due {
                o["due"] = TaskwarriorDate.format(keptDue)
            } else {
                let date = options.calendar.date(from: DateComponents(year: due.year, month: due.month, day: due.day))!
                o["due"] = TaskwarriorDate.format(Int64(date.timeIntervalSince1970 * 1000))
            }
        }
        if t.isNextUp, let start = keptValues["start"] { o["start"] = start }
        // Annotations: the kept ones while the notes still say what they said.
        if let annotations = keptValues["annotations"] as? [[String: Any]],
           t.notes == notes(annotations.compactMap { a in
               (a["entry"] as? String).flatMap(TaskwarriorDate.parse).map { TaskwarriorTask.Annotation(entry: $0, description: a["description"] as? String ?? "") }
           }, options) {
            o["annotations"] = annotations
        } else if !t.notes.isEmpty {
            o["annotations"] = t.notes.split(separator: "\n").map { ["entry": TaskwarriorDate.format(t.versions[.notes]?.timestamp.millis ?? t.created), "description": String($0)] }
        }
        for (name, value) in keptValues where !["status", "end", "priority", "project", "due", "start", "annotations", "tags"].contains(name) {
            o[name] = value
        }
        if let name = options.durationFrom, let minutes = t.duration?.minutes, o[name] == nil || TaskwarriorMapping.minutes(jsonText(o[name]!)) != minutes {
            o[name] = "PT\(minutes / 60)H\(minutes % 60)M"
        }
        return o
    }

    static func jsonText(_ value: Any) -> String {
        (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
