import Foundation
import NextUpCore

extension TaskwarriorMapping {
    /// Every task as `task import` reads it, each series (its occurrences,
    /// by ``OccurrenceID``) as Taskwarrior's template and instances.
    ///
    /// Contract (with ``TaskwarriorSeries``, the way in): a series whose rule
    /// Taskwarrior has a period for is a template — the series' id as its
    /// uuid, or the one it came with — whose `mask` covers every occurrence
    /// nextup holds and every instance Taskwarrior made ahead, so a later
    /// `task` run makes no instance for an index nextup already wrote; its
    /// status is `deleted` once the series is stopped. Occurrence *n* is the
    /// instance of index *n−1* under the uuid it came with (`external_id`),
    /// else the uuid of the instance Taskwarrior made ahead for it, else its
    /// own id (the first occurrence, whose id is the template's, a name-based
    /// one). A series whose rule Taskwarrior has no period for is written as
    /// plain tasks carrying ``TaskwarriorSeries/occurrenceMarker`` and
    /// ``TaskwarriorSeries/ruleMarker`` (and a template it came from, deleted).
    static func objects(_ all: [TaskItem], _ options: Options) -> [[String: Any]] {
        var out: [[String: Any]] = []
        var series: [TaskID: [(number: Int, task: TaskItem)]] = [:]
        for t in all {
            guard let occurrence = t.occurrence else {
                out.append(object(t, options))
                continue
            }
            series[occurrence.series, default: []].append((occurrence.number, t))
        }
        for (id, list) in series.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            out += objects(series: id, list.sorted { $0.number < $1.number }, options)
        }
        return out
    }

    private static func objects(series id: TaskID, _ list: [(number: Int, task: TaskItem)], _ options: Options) -> [[String: Any]] {
        let live = list.last { $0.task.isOpen }?.task ?? list.last!.task
        let stopped = Self.rule(of: live) == nil
        let rule = list.reversed().lazy.compactMap { Self.rule(of: $0.task) }.first
        let kept = list.reversed().lazy.map { keptValues($0.task) }
        let keptTemplate = kept.compactMap { $0[TaskwarriorSeries.templateKey] as? [String: Any] }.first
        var ahead: [Int: String] = [:]
        for values in kept {
            for (n, uuid) in values[TaskwarriorSeries.aheadKey] as? [String: String] ?? [:] {
                if let n = Int(n), ahead[n] == nil { ahead[n] = uuid }
            }
        }
        let keptDue = (keptTemplate?["due"] as? String).flatMap(TaskwarriorDate.parse)
        let firstDue = keptDue.map { localDate($0, options) } ?? list.first { $0.number == 1 }?.task.due
        let keptWord = keptTemplate?["recur"] as? String
        var word: String?
        if let rule, let firstDue {
            if let keptWord, TaskwarriorRecurrence.rule(keptWord, firstDue: firstDue, until: rule.until) == rule {
                word = keptWord
            } else {
                word = TaskwarriorRecurrence.word(for: rule, firstDue: firstDue)
            }
        }
        if word == nil, stopped, keptTemplate != nil { word = keptWord }

        var out: [[String: Any]] = []
        var template = keptTemplate ?? [:]
        let templateID = (template["uuid"] as? String) ?? id.rawValue
        if let word, let firstDue {
            // A series field goes to the template only when nextup changed
            // it on the live occurrence since Taskwarrior last wrote that
            // instance: an edit of one instance in Taskwarrior stays its own.
            let liveObject = object(live, options)
            let seen = keptTemplate == nil ? nil : keptValues(live)[TaskwarriorSeries.instanceKey] as? [String: Any]
            for key in TaskwarriorSeries.seriesKeys where seen.map({ seriesValue($0, key) != seriesValue(liveObject, key) }) ?? true {
                let tags = (liveObject["tags"] as? [String] ?? []).filter { $0 != nextTag }
                template[key] = key == "tags" ? (tags.isEmpty ? nil : tags) : liveObject[key]
            }
            template["uuid"] = templateID
            template["status"] = stopped ? "deleted" : "recurring"
            template["recur"] = word
            template["rtype"] = "periodic"
            template["due"] = keptDue.flatMap { localDate($0, options) == firstDue ? TaskwarriorDate.format($0) : nil } ?? midnight(firstDue, options)
            let keptUntil = (template["until"] as? String).flatMap(TaskwarriorDate.parse)
            template["until"] = rule?.until.map { until in
                keptUntil.flatMap { localDate($0, options) == until ? TaskwarriorDate.format($0) : nil } ?? midnight(until, options)
            }
            if template["entry"] == nil { template["entry"] = TaskwarriorDate.format(list[0].task.created) }
            // Never older than Taskwarrior's own stamp (its `task` run that
            // made an instance touched the template after the instance).
            let keptModified = (template["modified"] as? String).flatMap(TaskwarriorDate.parse) ?? 0
            template["modified"] = TaskwarriorDate.format(max(keptModified, list.map(\.task.modified.millis).max()!))
            template["mask"] = mask(list, kept: template["mask"] as? String ?? "", ahead: ahead)
            out.append(template)
        } else if keptTemplate != nil {
            // The rule changed to one Taskwarrior has no period for: its
            // template stops making instances.
            template["status"] = "deleted"
            out.append(template)
        }
        for (number, t) in list {
            var o = object(t, options)
            let external = t.source == source ? t.externalID.flatMap(TaskID.init) : nil
            o["uuid"] = (external ?? ahead[number].flatMap(TaskID.init)
                ?? (number == 1 ? TaskID.stable(from: "nextup-taskwarrior-instance:\(id.rawValue)") : t.id)).rawValue
            for key in ["parent", "imask", "recur", "rtype", "mask", "until"] { o[key] = nil }
            if let word, template["due"] != nil {
                o["parent"] = templateID
                o["imask"] = number - 1
                o["recur"] = word
                o["rtype"] = "periodic"
                o["until"] = template["until"]
            } else {
                o[TaskwarriorSeries.occurrenceMarker] = OccurrenceID(series: id, number: number).description
                o[TaskwarriorSeries.ruleMarker] = Self.rule(of: t)?.rrule
            }
            out.append(o)
        }
        return out
    }

    /// Taskwarrior's record of a template's instances: `+` done, `X`
    /// deleted, `-` pending (`W` waiting, as kept), one per index, as long as the longest of the
    /// kept mask, nextup's occurrences and the instances made ahead.
    static func mask(_ list: [(number: Int, task: TaskItem)], kept: String, ahead: [Int: String]) -> String {
        var marks = Array(kept)
        let length = max(marks.count, list.map(\.number).max() ?? 0, ahead.keys.max() ?? 0)
        if marks.count < length { marks += Array(repeating: "-", count: length - marks.count) }
        for (number, t) in list {
            let open: Character = marks[number - 1] == "W" ? "W" : "-"
            marks[number - 1] = t.isDone ? "+" : t.deleted ? "X" : open
        }
        return String(marks)
    }

    /// A series field of a Taskwarrior object, comparable across trips
    /// (tags as a set, without `next`).
    static func seriesValue(_ o: [String: Any], _ key: String) -> String {
        guard key == "tags" else { return jsonText(o[key] ?? NSNull()) }
        return jsonText((o["tags"] as? [String] ?? []).filter { $0 != nextTag }.sorted())
    }

    /// A task's rule; nil when it has none (never had, or stopped).
    static func rule(of t: TaskItem) -> RecurrenceRule? { t.recur }

    /// Local midnight of `date` in Taskwarrior's form.
    static func midnight(_ date: DueDate, _ options: Options) -> String {
        let moment = options.calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
        return TaskwarriorDate.format(Int64(moment.timeIntervalSince1970 * 1000))
    }

    /// A template's attributes, as its JSON object's text (kept on its
    /// instances, ``TaskwarriorSeries/templateKey``).
    static func json(_ t: TaskwarriorTask) -> String {
        var fields = t.other
        fields["uuid"] = jsonString(t.uuid.rawValue)
        fields["description"] = jsonString(t.description)
        fields["status"] = jsonString(t.status.rawValue)
        let dates: [(String, Int64?)] = [("entry", t.entry), ("modified", t.modified), ("end", t.end), ("start", t.start), ("due", t.due)]
        for case let (name, date?) in dates { fields[name] = jsonString(TaskwarriorDate.format(date)) }
        if let priority = t.priority { fields["priority"] = jsonString(priority) }
        if let project = t.project { fields["project"] = jsonString(project) }
        if !t.tags.isEmpty { fields["tags"] = jsonArray(t.tags) }
        if !t.annotations.isEmpty { fields["annotations"] = annotationsJSON(t.annotations) }
        return jsonObject(fields)
    }
}

extension TaskJSON {
    /// The series fields of an occurrence: its rule (nil: stopped) and which one it is.
    mutating func setSeries(rule: RecurrenceRule?, occurrence: OccurrenceID) {
        recur = rule?.rrule
        self.occurrence = occurrence.description
    }

    /// The defer date (`YYYY-MM-DD`), or none.
    mutating func setDefer(_ date: String?) { deferDate = date }
}
