import NextUpCore

extension ICalComponent {
    /// The properties of a VTODO that the bridge writes; every other one a
    /// file holds (a client's alarms, its own `X-` properties, `DTSTART`,
    /// `RRULE`, …) is kept as the file had it.
    static let managedVTodoProperties: Set<String> = Set([
        "UID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "SEQUENCE", "SUMMARY", "DESCRIPTION", "PRIORITY",
        "CATEGORIES", "DUE", "STATUS", "COMPLETED", "PERCENT-COMPLETE",
    ]).union(VTodoView.Extension.allCases.map(\.rawValue)).union([VersionRecord.propertyName])

    /// The `PRODID` of files nextup writes.
    public static let nextupProductID = "-//nextup//nextup phone bridge//EN"

    /// The iCalendar object for `task`: a `VCALENDAR` holding one `VTODO`
    /// whose view (``VTodoView/init(vtodo:)``) is ``VTodoView/init(task:uid:)``.
    ///
    /// Contract: `DTSTAMP` and `LAST-MODIFIED` are the task's newest version
    /// time and `CREATED` its creation time (UTC), so a file depends only on
    /// the task and `sequence`; `uid` is the `UID` when it is not the task's
    /// own (a series' later occurrence); with `previous` (the file as it is now), every
    /// property and component the bridge does not manage is kept, and so is a
    /// `DUE` that already names the task's due date (a client's time of day
    /// and zone survive).
    public static func vtodoCalendar(for task: TaskItem, uid: String? = nil, sequence: Int, previous: ICalComponent? = nil) -> ICalComponent {
        let view = VTodoView(task: task, uid: uid)
        let old = previous?.components.first { $0.name == "VTODO" }
        var p: [ICalProperty] = []
        p.append(ICalProperty(name: "UID", text: view.uid))
        let stamp = ICalDate.formatUTC(millis: max(task.modified.millis, task.created))
        p.append(ICalProperty(name: "DTSTAMP", value: stamp))
        p.append(ICalProperty(name: "CREATED", value: ICalDate.formatUTC(millis: task.created)))
        p.append(ICalProperty(name: "LAST-MODIFIED", value: stamp))
        p.append(ICalProperty(name: "SEQUENCE", value: String(max(0, sequence))))
        p.append(ICalProperty(name: "SUMMARY", text: view.title))
        if !view.notes.isEmpty { p.append(ICalProperty(name: "DESCRIPTION", text: view.notes)) }
        if let importance = view.importance { p.append(ICalProperty(name: "PRIORITY", value: ["9", "5", "1"][importance - 1])) }
        if !view.categories.isEmpty {
            p.append(ICalProperty(name: "CATEGORIES", value: view.categories.map(ICalText.escape).joined(separator: ",")))
        }
        if let due = task.due {
            if let kept = old?.property("DUE"), ICalDate.date(kept.value) == due {
                p.append(kept)
            } else {
                p.append(ICalProperty(name: "DUE", parameters: [ICalParameter(name: "VALUE", values: ["DATE"])], value: ICalDate.format(due)))
            }
        }
        if let start = task.deferDate, old?.property("DTSTART") == nil {
            p.append(ICalProperty(name: "DTSTART", parameters: [ICalParameter(name: "VALUE", values: ["DATE"])], value: ICalDate.format(start)))
        }
        if let rule = task.recur, old?.property("RRULE") == nil { p.append(ICalProperty(name: "RRULE", value: rule.rrule)) }
        if view.cancelled {
            p.append(ICalProperty(name: "STATUS", value: "CANCELLED"))
        } else {
            p.append(ICalProperty(name: "STATUS", value: view.completedAt == nil ? "NEEDS-ACTION" : "COMPLETED"))
        }
        if let completed = view.completedAt {
            p.append(ICalProperty(name: "COMPLETED", value: ICalDate.formatUTC(millis: completed)))
            p.append(ICalProperty(name: "PERCENT-COMPLETE", value: "100"))
        } else if let percent = old?.property("PERCENT-COMPLETE"), percent.value != "100" {
            p.append(percent)
        }
        for ext in VTodoView.Extension.allCases {
            p.append(ICalProperty(name: ext.rawValue, text: view[ext] ?? ""))
        }
        if let record = VersionRecord(task: task, view: view).property { p.append(record) }
        for property in old?.properties ?? [] where !managedVTodoProperties.contains(property.name) {
            p.append(property)
        }
        let todo = ICalComponent(name: "VTODO", properties: p, components: old?.components ?? [])
        var calendar = ICalComponent(name: "VCALENDAR", properties: [
            ICalProperty(name: "VERSION", value: "2.0"),
            ICalProperty(name: "PRODID", text: nextupProductID),
        ])
        for property in previous?.properties ?? [] where property.name != "VERSION" && property.name != "PRODID" {
            calendar.properties.append(property)
        }
        calendar.components = (previous?.components.filter { $0.name != "VTODO" } ?? []) + [todo]
        return calendar
    }
}
