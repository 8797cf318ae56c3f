import Foundation
import NextUpCore

/// Taskwarrior ↔ nextup, both ways (README, "Coming from Taskwarrior").
///
/// Contract, for every task: out then in gives nextup the values it had
/// (every field nextup maps), and in then out gives Taskwarrior back what it
/// wrote, byte for byte, for every attribute nextup did not change — so a
/// round trip with edits on either side never drifts. For that, each
/// imported task keeps, in one opaque field (``keptField``), every attribute
/// nextup does not map (UDAs, `wait`, `scheduled`, `until`, `depends`, …) and
/// the original of every one it maps but may spell differently
/// (`description`, `project`, `tags`, `due`, `start`, `end`, `status`, the
/// annotations with their dates); `export` writes the original back while
/// nextup's value still reads as it.
///
/// In: `description` → title; `annotations` → notes (their texts, one after
/// the other; see ``annotations(for:kept:editTime:_:)`` for the way back);
/// `priority` H/M/L → importance 3/2/1; `project` → category (the whole
/// project, or its first segment); `tags` → tags, but `next` (or a set
/// `start`) → Next Up and the urgency tag → urgency; `due` → the due date in
/// the local time zone; `status` pending/waiting → open, completed → done at
/// `end`, deleted → deleted; a recurring template and its instances → one
/// series (``TaskwarriorSeries``; a template nextup has no rule for is kept
/// hidden); `wait`, else `scheduled` → the defer date;
/// `entry` → created; `modified` → the version time of every imported field;
/// urgency and duration from a tag or UDA the user names, else from
/// nextup's own attributes (``urgencyMarker``, ``durationMarker``), which
/// carry what Taskwarrior has no place for. Each task keeps its `uuid` as
/// its id.
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
    /// The opaque field holding a task's kept Taskwarrior attributes, as one
    /// JSON object (text, keys sorted).
    static let keptField = "taskwarrior"
    /// The prefix of kept attributes as an earlier nextup stored them, one
    /// field each; read only for a task without ``keptField``.
    static let kept = "tw."
    /// The Taskwarrior attribute that carries nextup's urgency when the
    /// urgency tag or UDA cannot (`not-urgent` beside a tag; any urgency
    /// without `--urgency-from`).
    static let urgencyMarker = "nextup_urgency"
    /// The Taskwarrior attribute that carries nextup's duration (minutes)
    /// without `--duration-from`.
    static let durationMarker = "nextup_duration"
    /// The tag that puts a task in Next Up.
    static let nextTag = "next"

    // MARK: In

    static func record(_ t: TaskwarriorTask, _ options: Options, place: TaskwarriorSeries.Place? = nil) throws -> TaskJSON {
        var r = TaskJSON(title: try TaskText.title(t.description))
        r.id = (place?.occurrence.taskID ?? t.uuid).rawValue
        r.source = source
        r.externalID = t.uuid.rawValue
        r.created = t.entry.map(Timestamps.rfc3339)
        r.modified = (t.modified ?? t.entry).map(Timestamps.rfc3339)
        var keep = t.other
        if r.title != t.description { keep["description"] = jsonString(t.description) }
        if !t.annotations.isEmpty {
            r.notes = try TaskText.notes(t.annotations.map(\.description).joined(separator: "\n"))
            keep["annotations"] = annotationsJSON(t.annotations)
        }
        switch t.priority {
        case "H": r.importance = 3
        case "M": r.importance = 2
        case "L": r.importance = 1
        case let other?: keep["priority"] = jsonString(other)
        case nil: break
        }
        if let project = t.project {
            keep["project"] = jsonString(project)
            r.category = category(of: project, options)
        }
        if !t.tags.isEmpty { keep["tags"] = jsonArray(t.tags) }
        r.tags = try t.tags.filter { $0 != nextTag && $0 != options.urgencyFrom }.map(TaskText.tag)
        r.nextUp = t.tags.contains(nextTag) || t.start != nil
        if let start = t.start { keep["start"] = jsonString(TaskwarriorDate.format(start)) }
        if let due = t.due {
            r.due = localDate(due, options).description
            keep["due"] = jsonString(TaskwarriorDate.format(due))
        }
        switch t.status {
        case .pending, .waiting: r.done = false; r.deleted = false
        case .completed:
            r.done = true
            r.completedAt = Timestamps.rfc3339(t.end ?? t.modified ?? t.entry ?? 0)
        case .deleted: r.deleted = true
        case .recurring: r.deleted = true  // a template: hidden, kept for the way back
        }
        // Taskwarrior's `wait` (hidden until) and `scheduled` (not to start
        // before): the defer date, `wait` first; both stay kept.
        let deferFrom = t.other["wait"] ?? t.other["scheduled"]
        r.setDefer(deferFrom.flatMap(unquoted).flatMap(TaskwarriorDate.parse).map { localDate($0, options).description })
        if let place {
            r.setSeries(rule: place.rule, occurrence: place.occurrence)
            if let template = place.template {
                keep[TaskwarriorSeries.templateKey] = template
                var seen: [String: String] = ["description": jsonString(t.description)]
                if let priority = t.priority { seen["priority"] = jsonString(priority) }
                if let project = t.project { seen["project"] = jsonString(project) }
                if !t.tags.isEmpty { seen["tags"] = jsonArray(t.tags) }
                keep[TaskwarriorSeries.instanceKey] = jsonObject(seen)
            }
            if !place.ahead.isEmpty {
                keep[TaskwarriorSeries.aheadKey] = "{" + place.ahead.sorted { $0.key < $1.key }
                    .map { "\"\($0.key)\":" + jsonString($0.value) }.joined(separator: ",") + "}"
            }
        }
        if t.status != .pending { keep["status"] = jsonString(t.status.rawValue) }
        if let end = t.end, t.status != .completed { keep["end"] = jsonString(TaskwarriorDate.format(end)) }
        if let name = options.urgencyFrom {
            if t.tags.contains(name) { r.urgency = "urgent" }
            else if let value = t.other[name] { r.urgency = truthy(value) ? "urgent" : "not-urgent" }
        }
        if r.urgency == nil, let marker = t.other[urgencyMarker].flatMap(unquoted), let urgency = Urgency(rawValue: marker) {
            r.urgency = urgency.rawValue
        }
        if let name = options.durationFrom, let value = t.other[name] {
            guard let minutes = minutes(value) else {
                throw TaskInputError("'\(name)' is not a duration (\(Sanitizer.visible(value)); expected minutes or PT1H30M)")
            }
            r.duration = minutes
        } else if let marker = t.other[durationMarker] {
            r.duration = minutes(marker)
        }
        let text = jsonObject(keep)
        guard text.utf8.count <= TaskField.maxOpaqueBytes else {
            throw TaskInputError("its annotations and other attributes take \(text.utf8.count / 1024) KiB; nextup keeps at most \(TaskField.maxOpaqueBytes / 1024) KiB per task")
        }
        // A recurring template is kept only for the way back: hidden from
        // every list and lookup (and shown again should it stop being one).
        r.extra = (r.extra ?? [:]).merging([keptField: .string(text), TaskField.hidden.rawValue: t.status == .recurring && place == nil ? .bool(true) : .null]) { $1 }
        return r
    }

    /// The category a project maps to (nil when none fits).
    static func category(of project: String, _ options: Options) -> String? {
        var name = options.categoryFromFirstSegment ? String(project.split(separator: ".").first ?? Substring(project)) : project
        name = String(name.prefix(TaskText.maxCategoryLength))
        while name.utf8.count > TaskText.maxCategoryBytes { name.removeLast() }
        return try? TaskText.category(name)
    }

    /// The text of a JSON string value (`"x"` → `x`); nil for any other value.
    static func unquoted(_ json: String) -> String? {
        guard json.hasPrefix("\""), let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String else { return nil }
        return value
    }

    /// `yyyy-MM-dd HH:mm` of `millis` in the options' time zone: how an
    /// earlier nextup dated each annotation in the notes (recognised on the
    /// way back). Dates before the Gregorian calendar's start (1583) or past
    /// 9999 are left to the formatter, whose calendar is Julian before it.
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

    /// A JSON array of strings.
    static func jsonArray(_ strings: [String]) -> String { "[" + strings.map(jsonString).joined(separator: ",") + "]" }

    /// A JSON object of values already in JSON, its keys sorted.
    static func jsonObject(_ fields: [String: String]) -> String {
        "{" + fields.sorted { $0.key < $1.key }.map { jsonString($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
    }

    static func annotationsJSON(_ list: [TaskwarriorTask.Annotation]) -> String {
        "[" + list.map { "{\"description\":\(jsonString($0.description)),\"entry\":\"\(TaskwarriorDate.format($0.entry))\"}" }
            .joined(separator: ",") + "]"
    }

    // MARK: Out

    /// The attributes a task kept from its import, parsed (``keptField``,
    /// else an earlier nextup's `tw.` fields).
    static func keptValues(_ t: TaskItem) -> [String: Any] {
        if case .string(let text)? = t.extra[TaskField(rawValue: keptField)!] {
            return (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
        }
        var values: [String: Any] = [:]
        for (field, value) in t.extra {
            guard field.rawValue.hasPrefix(kept), case .string(let json) = value,
                  let parsed = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) else { continue }
            values[String(field.rawValue.dropFirst(kept.count))] = parsed
        }
        return values
    }

    /// The Taskwarrior object of a task, as `task import` reads it.
    static func object(_ t: TaskItem, _ options: Options) -> [String: Any] {
        let keptValues = keptValues(t)
        var o: [String: Any] = [:]
        let handled: Set<String> = ["status", "end", "priority", "project", "due", "start", "annotations", "tags", "description",
                                    "wait", "scheduled", TaskwarriorSeries.templateKey, TaskwarriorSeries.aheadKey, TaskwarriorSeries.instanceKey,
                                    TaskwarriorSeries.occurrenceMarker, TaskwarriorSeries.ruleMarker]
        for (name, value) in keptValues where !handled.contains(name) { o[name] = value }
        // The defer date: the kept `wait` or `scheduled` while it still reads
        // as it, else `wait` at its local midnight. A defer date never
        // written in nextup (an import before it was mapped) keeps both.
        let keptWait = keptValues["wait"] as? String, keptScheduled = keptValues["scheduled"] as? String
        func reads(_ kept: String?, as date: DueDate) -> Bool {
            kept.flatMap(TaskwarriorDate.parse).map { localDate($0, options) == date } ?? false
        }
        if let date = t.deferDate {
            o["wait"] = reads(keptWait, as: date) || (keptWait == nil && reads(keptScheduled, as: date)) ? keptWait : midnight(date, options)
            o["scheduled"] = keptScheduled
        } else if t.versions[.deferDate] == nil {
            o["wait"] = keptWait
            o["scheduled"] = keptScheduled
        }
        o["uuid"] = t.id.rawValue
        let keptDescription = keptValues["description"] as? String
        o["description"] = keptDescription.flatMap { (try? TaskText.title($0)) == t.title ? $0 : nil } ?? t.title
        o["entry"] = TaskwarriorDate.format(t.created)
        o["modified"] = TaskwarriorDate.format(t.modified.millis)
        let keptStatus = keptValues["status"] as? String
        if t.deleted {
            o["status"] = keptStatus == "recurring" ? "recurring" : "deleted"
        } else if let done = t.completedAt {
            o["status"] = "completed"
            o["end"] = TaskwarriorDate.format(done)
        } else {
            o["status"] = keptStatus == "waiting" && o["wait"] != nil ? "waiting" : "pending"
        }
        if o["end"] == nil, let end = keptValues["end"] { o["end"] = end }
        // Priority: the letter back, or a kept custom value.
        switch t.importance {
        case .high: o["priority"] = "H"
        case .medium: o["priority"] = "M"
        case .low: o["priority"] = "L"
        case nil: if let p = keptValues["priority"] { o["priority"] = p }
        }
        let keptProject = keptValues["project"] as? String
        if let keptProject, category(of: keptProject, options) == t.category {
            o["project"] = keptProject
        } else if let category = t.category {
            o["project"] = category
        }
        // Tags: nextup's, with `next` for Next Up and the urgency tag; in
        // Taskwarrior's own order and spelling where they came from it.
        let keptTags = keptValues["tags"] as? [String] ?? []
        var wanted = Set(t.tags.filter { $0 != nextTag && $0 != options.urgencyFrom })
        if t.isNextUp {
            if let start = keptValues["start"] { o["start"] = start }
            if keptValues["start"] == nil || keptTags.contains(nextTag) { wanted.insert(nextTag) }
        }
        // Urgency: the tag, or the UDA it came in, else nextup's own attribute.
        let marker = urgencyMarker
        if let name = options.urgencyFrom, let keptUDA = keptValues[name] {
            switch t.urgency {
            case .urgent?: o[name] = truthy(jsonText(keptUDA)) ? keptUDA : "urgent"
            case .notUrgent?: o[name] = truthy(jsonText(keptUDA)) ? "not-urgent" : keptUDA
            case nil: o[name] = nil; o[marker] = nil
            }
        } else if let name = options.urgencyFrom {
            switch t.urgency {
            case .urgent?: wanted.insert(name)
            case .notUrgent?: o[marker] = Urgency.notUrgent.rawValue
            case nil: o[marker] = nil
            }
        } else {
            o[marker] = t.urgency?.rawValue
        }
        var tags: [String] = []
        for tag in keptTags {
            let name = (try? TaskText.tag(tag)) ?? tag
            if wanted.remove(name) != nil { tags.append(tag) }
        }
        tags += wanted.sorted()
        if !tags.isEmpty { o["tags"] = tags }
        if let due = t.due {
            let keptDue = (keptValues["due"] as? String).flatMap(TaskwarriorDate.parse)
            if let keptDue, localDate(keptDue, options) == due {
                o["due"] = TaskwarriorDate.format(keptDue)
            } else {
                let date = options.calendar.date(from: DateComponents(year: due.year, month: due.month, day: due.day))!
                o["due"] = TaskwarriorDate.format(Int64(date.timeIntervalSince1970 * 1000))
            }
        }
        // A recurring task must have a due date (`task import` crashes without
        // one): cleared in nextup, the kept one goes back.
        if o["due"] == nil, o["recur"] != nil, let keptDue = keptValues["due"] { o["due"] = keptDue }
        // Duration: the UDA named for it, else nextup's own attribute.
        let minutes = t.duration?.minutes
        if let name = options.durationFrom {
            if let minutes {
                if o[name].map({ Self.minutes(jsonText($0)) != minutes }) ?? true { o[name] = isoDuration(minutes) }
            } else {
                o[name] = nil
                o[durationMarker] = nil
            }
        } else if o[durationMarker].map({ Self.minutes(jsonText($0)) != minutes }) ?? (minutes != nil) {
            o[durationMarker] = minutes.map(String.init)
        }
        // Annotations: each kept as it came while its text is in the notes.
        let keptAnnotations = (keptValues["annotations"] as? [[String: Any]] ?? []).compactMap { a in
            (a["entry"] as? String).flatMap(TaskwarriorDate.parse).map { TaskwarriorTask.Annotation(entry: $0, description: a["description"] as? String ?? "") }
        }
        let annotations = annotations(for: t.notes, kept: keptAnnotations, editTime: t.versions[.notes]?.timestamp.millis ?? t.modified.millis, options)
        if !annotations.isEmpty {
            o["annotations"] = annotations.map { ["entry": TaskwarriorDate.format($0.entry), "description": $0.description] }
        }
        return o
    }

    /// `PT1H30M`, `PT2H`, `PT45M`.
    static func isoDuration(_ minutes: Int) -> String {
        "PT" + (minutes >= 60 ? "\(minutes / 60)H" : "") + (minutes % 60 != 0 || minutes < 60 ? "\(minutes % 60)M" : "")
    }

    static func jsonText(_ value: Any) -> String {
        (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
