import NextUpCore

/// `nextup show`'s human form: one `field: value` line each, sanitised.
enum TaskDetail {
    /// The labels' column: the longest label, its colon and a space.
    static let labelWidth = "external id: ".count

    static func render(_ t: TaskItem) -> [String] {
        var lines: [(String, String)] = [
            ("id", t.id.rawValue),
            ("title", Sanitizer.visible(t.title)),
            ("urgency", t.urgency?.label ?? "?"),
            ("importance", t.importance.map { "\($0.rawValue) (\(["low", "medium", "high"][$0.rawValue - 1]))" } ?? "?"),
            ("duration", t.duration?.description ?? "?"),
            ("category", t.category.map(Sanitizer.visible) ?? "?"),
            ("due", t.due?.description ?? "-"),
            ("defer", t.deferDate?.description ?? "-"),
            ("tags", t.tags.isEmpty ? "-" : t.tagNames.map { "+" + Sanitizer.visible($0) }.joined(separator: " ")),
            ("list", t.deleted ? "deleted" : t.isDone ? "done" : t.isNextUp ? "Next Up" : "Backlog"),
        ]
        if let rule = t.recur { lines.append(("recurs", rule.rrule)) }
        if let o = t.occurrence { lines.append(("occurrence", "\(o.number) of series \(o.series.short)\(t.recur == nil ? " (stopped)" : "")")) }
        if let c = t.completedAt { lines.append(("completed", Timestamps.rfc3339(c))) }
        lines.append(("created", Timestamps.rfc3339(t.created)))
        lines.append(("modified", Timestamps.rfc3339(t.modified.millis)))
        if let s = t.source { lines.append(("source", Sanitizer.visible(s))) }
        if let e = t.externalID { lines.append(("external id", Sanitizer.visible(e))) }
        var out = lines.map { TerminalWidth.fit($0.0 + ":", to: labelWidth) + $0.1 }
        let opaque = t.extra.filter { $0.key.tagName == nil }.sorted { $0.key < $1.key }
        if !opaque.isEmpty {
            out.append("other fields (kept for other tools and newer nextup):")
            out += opaque.map { "  \(Sanitizer.visible($0.key.rawValue)): \(Sanitizer.visible($0.value.description))" }
        }
        if !t.notes.isEmpty {
            out.append("notes:")
            out += t.notes.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + Sanitizer.visible(String($0)) }
        }
        return out
    }
}
