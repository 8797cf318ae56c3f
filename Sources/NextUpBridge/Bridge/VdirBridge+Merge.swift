import NextUpCore
import NextUpStore

extension VdirBridge {
    /// The two conflicting versions of one vdir item merged
    /// (``VdirMerge``): `a`, brought up to the task as it is now (what the
    /// bridge would write), `b`, this vdir's memory of the item as the base,
    /// the store's version times of the task's fields as nextup's change
    /// times, and its history's takes from the calendar. Reads the store and
    /// the vdir's marker; writes nothing.
    ///
    /// - Throws: ``ICalParseError`` when a side is not an iCalendar item.
    public func merge(_ a: [UInt8], _ b: [UInt8]) throws -> String {
        if a == b { return String(decoding: b, as: UTF8.self) }
        var a = a
        var uid: String?
        for side in [a, b] where uid == nil {
            if case .success(let (view, _, _)) = BridgeCycle.item(side, zone: zone) { uid = view.uid }
        }
        let item = try uid.flatMap { uid in try vdirKey(create: false).flatMap { try store.bridgeItems(vdir: $0)[uid] } }
        var times: [String: Int64] = [:]
        var fromCalendar: Set<String> = []
        var takes: [TaskField: VersionRecord.Entry] = [:]
        if let uid, let task = try liveTask(TaskID.forVTodoUID(uid)) {
            // Nextup's side is the task as it is now: the vdir's copy may predate a change the
            // bridge has not written yet, and the times below are the task's.
            if let patched = ICalComponent.patched(a, for: task, zone: zone) { a = Array(patched.utf8) }
            takes = VersionRecord.calendarTakes(try store.historyEntries(of: task.id))
            func time(_ fields: [TaskField]) -> Int64? { fields.compactMap { task.versions[$0]?.timestamp.millis }.max() }
            func calendars(_ fields: [TaskField]) -> Bool { fields.compactMap { task.versions[$0] }.max()?.replica.isCalendarValue == true }
            let tags = Set(task.versions.keys.compactMap(\.tagName))
            let names = ["SUMMARY", "DESCRIPTION", "PRIORITY", "DUE", "DTSTART", "RRULE", "STATUS", "COMPLETED", "PERCENT-COMPLETE", "CATEGORIES",
                         "X-NEXTUP-URGENCY", "X-NEXTUP-DURATION", "X-NEXTUP-CATEGORY", "X-NEXTUP-NEXT-UP"]
            let map = Dictionary(uniqueKeysWithValues: names.map { ($0, VdirMerge.fields(of: $0, tags: tags)) })
            for (name, fields) in map {
                times[name] = time(fields)
                if calendars(fields) { fromCalendar.insert(name) }
            }
        }
        return try VdirMerge(base: item?.base, written: item?.written ?? [], nextupTimes: times, fromCalendar: fromCalendar,
                             calendarTakes: takes, zone: zone).merge(a, b)
    }

    /// The task a file's `UID` names: the live occurrence when it names a
    /// series (the file holds that one).
    func liveTask(_ id: TaskID) throws -> TaskItem? {
        guard let task = try store.task(id), let series = task.occurrence?.series else { return try store.task(id) }
        let occurrences = try store.allTasks().filter { $0.occurrence?.series == series }
        return occurrences.max { ($0.isOpen ? 1 : 0, $0.occurrence?.number ?? 0) < ($1.isOpen ? 1 : 0, $1.occurrence?.number ?? 0) } ?? task
    }
}
