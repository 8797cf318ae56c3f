import NextUpCore

/// vdirsyncer's conflict command (`nextup vdir-merge A B`): a three-way
/// merge of two versions of one item, property by property, with the
/// bridge's memory of the file as the base. Pure.
///
/// The versions: `a` and `b`, the two sides vdirsyncer found changed; the
/// base, the phone's last version the bridge read (``NextUpStore/BridgeItem/base``);
/// and every version the bridge wrote since (``NextUpStore/BridgeItem/written``),
/// which a server may hold while the phone edits.
///
/// Invariants (property-tested):
/// - Each property (all lines of one name, a sub-component by its name and
///   place; `STATUS`, `COMPLETED` and `PERCENT-COMPLETE` as one) and each component (by name, `UID`, `RECURRENCE-ID`, `TZID`) is
///   decided on its own; no whole side ever wins.
/// - A property equal on both sides is kept. One `b` holds as a known
///   version held it (the base or one of the bridge's writes) was not
///   changed on `b`'s side: `a`'s is taken. One `a` holds as the base held
///   it, with no other value written by the bridge since, was not changed
///   on `a`'s side: `b`'s is taken (whatever nextup's time says: a value
///   nextup took from the phone carries the time it was taken). Otherwise both
///   changed it, and the newer change wins: `b`'s `LAST-MODIFIED` (the end of
///   the whole second it names) against the time nextup
///   last changed what the property carries (``nextupTimes``; a property
///   nextup never wrote is `b`'s), `b` on a tie. (So a phone that sets a
///   property back to a value a remembered version held reads as no change,
///   except where nextup's value is the calendar's own, taken from a file
///   older than `b` (``fromCalendar``): the phone changed it again since —
///   a reopen after another machine took the completion — and `b`'s wins.)
/// - A property `b`'s ``VersionRecord`` names with another value than `b`
///   holds was changed on `b`'s side, even back to a known version's value —
///   unless the base held that value under the same entry (a change the
///   bridge read already). It dates from `b`'s `LAST-MODIFIED`, or from the
///   version a known version's record names `b`'s value under when that is
///   later than `b`'s entry (a store took that change already). It is
///   recorded under ``NextUpCore/ReplicaID/calendar`` at `b`'s
///   `LAST-MODIFIED`; a value of `b`'s no record names, under
///   ``NextUpCore/ReplicaID/calendarHeld``. A completion dates from `b`'s
///   `COMPLETED` instead when that is earlier. A value of `b`'s that won
///   over `a`'s is recorded after nextup's time of its field (which may lie
///   in `b`'s second of `LAST-MODIFIED`), so that a bridge takes it.
/// - A property whose value `b`'s record dates (by any entry but a
///   ``NextUpCore/ReplicaID/calendarHeld`` one) after nextup's change is
///   `b`'s, even when a known version held it.
/// - A value of `b`'s that the store last took from the calendar, with no
///   store's write of the field reaching `b` since (``VersionRecord/takenVersion(of:in:taken:)``),
///   dates from that take: a nextup change made after it wins, even where
///   `a` holds what the base held (the store took `b`'s value and replaced
///   it, through another machine).
/// - `LAST-MODIFIED` and `DTSTAMP` take the later, `SEQUENCE` the larger
///   value; an `X-NEXTUP-…` property one side lacks is the other side's (a
///   client that drops them says nothing about them).
/// - Merging a version with itself gives it back byte for byte.
/// - Lines are written as their side had them (folds, parameters); the
///   output's line ends are `b`'s.
public struct VdirMerge: Sendable {
    public let base: [UInt8]?
    public let written: [[UInt8]]
    /// The time (ms) nextup last changed what a property carries, by
    /// property name (`SUMMARY`, `CATEGORIES`, …), when the store knows it.
    public let nextupTimes: [String: Int64]
    /// The properties whose nextup value is the calendar's own (its newest
    /// version is a calendar value's, ``NextUpCore/ReplicaID/isCalendarValue``), taken from a file
    /// stamped at its ``nextupTimes`` time.
    public let fromCalendar: Set<String>
    /// Per field, the newest value the store took from the calendar
    /// (``VersionRecord/calendarTakes(_:)``).
    public let calendarTakes: [TaskField: VersionRecord.Entry]
    public let zone: LocalZone

    public init(base: [UInt8]?, written: [[UInt8]], nextupTimes: [String: Int64] = [:], fromCalendar: Set<String> = [],
                calendarTakes: [TaskField: VersionRecord.Entry] = [:], zone: LocalZone = .system) {
        self.base = base
        self.written = written
        self.nextupTimes = nextupTimes
        self.fromCalendar = fromCalendar
        self.calendarTakes = calendarTakes
        self.zone = zone
    }

    /// The merged item.
    ///
    /// - Throws: ``ICalParseError`` when `a` or `b` is not iCalendar.
    public func merge(_ a: [UInt8], _ b: [UInt8]) throws(ICalParseError) -> String {
        if a == b { return String(decoding: b, as: UTF8.self) }
        let left = try ICalComponent.parse(a)
        let right = try ICalComponent.parse(b)
        let baseItem = base.flatMap { try? ICalComponent.parse($0) }
        let known = [baseItem].compactMap { $0 } + written.compactMap { try? ICalComponent.parse($0) }
        let merged = mergeLists(left, right, base: baseItem, known: known)
        let lineEnd = b.firstIndex(of: 10).map { $0 > 0 && b[$0 - 1] == 13 ? "\r\n" : "\n" } ?? "\r\n"
        return merged.map { $0.serialized(lineEnd: lineEnd) }.joined()
    }

    /// A component's key among its siblings.
    static func key(_ c: ICalComponent) -> String {
        [c.name, c.property("UID")?.value ?? "", c.property("RECURRENCE-ID")?.value ?? "", c.property("TZID")?.value ?? ""]
            .joined(separator: "\u{1}")
    }

    func mergeLists(_ a: [ICalComponent], _ b: [ICalComponent], base: [ICalComponent]?, known: [[ICalComponent]]) -> [ICalComponent] {
        var out: [ICalComponent] = []
        let baseByKey = Dictionary((base ?? []).map { (Self.key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let aByKey = Dictionary(a.map { (Self.key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let bKeys = Set(b.map(Self.key))
        let knownByKey = known.map { Dictionary($0.map { (Self.key($0), $0) }, uniquingKeysWith: { first, _ in first }) }
        for component in b {
            let key = Self.key(component)
            let olds = knownByKey.compactMap { $0[key] }
            if let other = aByKey[key] {
                out.append(mergeComponent(other, component, base: baseByKey[key], known: olds))
            } else if olds.isEmpty || !olds.contains(component) {
                out.append(component)  // new on b's side, or changed there while a removed it
            }
        }
        for component in a where !bKeys.contains(Self.key(component)) {
            let olds = knownByKey.compactMap { $0[Self.key(component)] }
            if olds.isEmpty || !olds.contains(component) { out.append(component) }
        }
        return out
    }

    func mergeComponent(_ a: ICalComponent, _ b: ICalComponent, base: ICalComponent?, known: [ICalComponent]) -> ICalComponent {
        if a == b { return b }
        let timeB = b.property("LAST-MODIFIED").flatMap { ICalDate.instant($0.value.trimmingCharacters(in: .whitespaces), zone: zone) }
        let isMaster = b.name == "VTODO" && b.property("RECURRENCE-ID") == nil
        let viewA = isMaster ? try? VTodoView(vtodo: a, zone: zone) : nil
        let viewB = isMaster ? try? VTodoView(vtodo: b, zone: zone) : nil
        let recordB = VersionRecord(b)
        let recordBase = base.map(VersionRecord.init)
        let viewBase = isMaster ? base.flatMap { try? VTodoView(vtodo: $0, zone: zone) } : nil
        /// Whether `b`'s record names `field` with another value than `b`
        /// holds, a mismatch the base did not already have with the same
        /// entry and value (that one the bridge read: no new phone change).
        func changedSinceRecorded(_ field: TaskField, in view: VTodoView) -> Bool {
            guard recordB.differs(field, in: view) else { return false }
            let key = VersionRecord.digest(field)
            guard let recordBase, let viewBase, recordBase.entries[key] == recordB.entries[key] else { return true }
            return VersionRecord.value(of: field, in: viewBase) != VersionRecord.value(of: field, in: view)
        }
        let tags = Set((viewA?.categories ?? []) + (viewB?.categories ?? []))
        /// The fields properties `group` carry.
        func fields(_ group: [String]) -> [TaskField] { group.flatMap { Self.fields(of: $0, tags: tags) } }
        /// A side's lines of properties `group`.
        func lines(_ c: ICalComponent, _ group: [String]) -> [String] { group.flatMap { c.properties($0).map(\.contentLine) } }
        /// When a store wrote what `b` holds in properties `group` (its record
        /// names every value there it names at all): that value is not the phone's.
        func storeTime(_ group: [String]) -> Int64? {
            guard let viewB else { return nil }
            var newest: Int64?
            for field in fields(group) {
                if recordB.differs(field, in: viewB) { return nil }
                if let version = recordB.version(of: field, in: viewB) { newest = max(newest ?? .min, version.timestamp.millis) }
            }
            return newest
        }
        /// When a store wrote, or a change b's record proves made, what `b`
        /// holds in properties `group`: a date to trust, unlike ``ReplicaID/calendarHeld``'s.
        func recordedTime(_ group: [String]) -> Int64? {
            guard let viewB else { return nil }
            var newest: Int64?
            for field in fields(group) {
                guard let version = recordB.version(of: field, in: viewB), version.replica != .calendarHeld else { continue }
                newest = max(newest ?? .min, version.timestamp.millis)
            }
            return newest
        }
        /// When a store recorded `b`'s value of properties `group` in a known
        /// version after the entry `b`'s record names, or took it from the
        /// calendar with no later write reaching `b` (a phone change a store
        /// took already): the change's date, not `b`'s `LAST-MODIFIED`.
        func takenTime(_ group: [String]) -> Int64? {
            guard let viewB else { return nil }
            let held = lines(b, group)
            var newest: Int64?
            for field in fields(group) {
                guard let version = recordB.takenVersion(of: field, in: viewB, taken: calendarTakes) else { continue }
                newest = max(newest ?? .min, version.timestamp.millis)
            }
            for old in known where lines(old, group) == held {
                let record = VersionRecord(old)
                for field in fields(group) {
                    guard let version = record.version(of: field, in: viewB), version.replica != .calendarHeld,
                          let entry = recordB.entries[VersionRecord.digest(field)], version > entry.version else { continue }
                    newest = max(newest ?? .min, version.timestamp.millis)
                }
            }
            return newest
        }
        // b's completion dates from its COMPLETED when that is earlier than its
        // LAST-MODIFIED (a later edit of another property moved that on).
        let completedB = viewB?.completedAt.flatMap { completed in completed > 0 && timeB.map { completed < $0 } ?? false ? completed : nil }
        var names: [String] = []
        for p in b.properties + a.properties where !names.contains(p.name) { names.append(p.name) }
        var chosen: [String: [ICalProperty]] = [:]
        var decided: Set<String> = []
        for name in names {
            let pa = a.properties(name), pb = b.properties(name)
            let la = pa.map(\.contentLine), lb = pb.map(\.contentLine)
            if la == lb { chosen[name] = pb; continue }
            // A client that drops nextup's X- properties says nothing about them.
            if name.hasPrefix("X-NEXTUP-"), pa.isEmpty || pb.isEmpty { chosen[name] = pa.isEmpty ? pb : pa; continue }
            switch name {
            case "LAST-MODIFIED", "DTSTAMP":
                let ta = pa.first.flatMap { ICalDate.instant($0.value.trimmingCharacters(in: .whitespaces), zone: zone) } ?? .min
                let tb = pb.first.flatMap { ICalDate.instant($0.value.trimmingCharacters(in: .whitespaces), zone: zone) } ?? .min
                chosen[name] = ta > tb ? pa : pb
                continue
            case "SEQUENCE":
                let sa = pa.first.flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) } ?? -1
                let sb = pb.first.flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) } ?? -1
                chosen[name] = sa > sb ? pa : pb
                continue
            default: break
            }
            // The properties that carry one field are decided together (a completion is STATUS,
            // COMPLETED and PERCENT-COMPLETE): one side's, never a mix.
            let group = Self.statusGroup.contains(name) ? Self.statusGroup : [name]
            if group.count > 1, group.contains(where: { decided.contains($0) }) { continue }
            // b's record naming another value than b holds (and than the base held under the same
            // entry): the phone changed it since a store wrote it, even when it set it back to what
            // a known version held.
            let changedOnB = viewB.map { view in fields(group).contains { changedSinceRecorded($0, in: view) } } ?? false
            let taken = takenTime(group)
            let takeB = pick(false, true, la: lines(a, group), lb: lines(b, group), baseLines: base.map { lines($0, group) },
                             oldsB: changedOnB ? [] : known.map { lines($0, group) },
                             timeA: group.compactMap { nextupTimes[$0] }.max(),
                             timeB: storeTime(group) ?? taken ?? (group == Self.statusGroup ? completedB : nil) ?? timeB.map { $0 + 999 },
                             aFromCalendar: group.contains { fromCalendar.contains($0) }, recordedB: recordedTime(group), takenB: taken)
            for member in group {
                chosen[member] = takeB ? b.properties(member) : a.properties(member)
                decided.insert(member)
            }
        }
        var merged = ICalComponent(name: b.name)
        var placed = Set<String>()
        for p in b.properties + a.properties where !placed.contains(p.name) {
            placed.insert(p.name)
            merged.properties += chosen[p.name] ?? []
        }
        // Sub-components (alarms, overrides): the same rule, each by its key.
        merged.components = mergeSubcomponents(a.components, b.components, base: base?.components,
                                               known: known.map(\.components), timeB: timeB)
        // The record: per field, the entry of either side that names the merged value.
        let name = VersionRecord.propertyName
        if isMaster, let view = try? VTodoView(vtodo: merged, zone: zone) {
            // A value of b's that no store recorded is the calendar's, as of b's LAST-MODIFIED:
            // recorded so, a later phone edit of another property does not make it newer. Only a
            // change b's record proves is dated so; any other value the calendar only held then.
            var phone = VersionRecord()
            if let viewB, let timeB {
                for field in VersionRecord.fields(of: view) {
                    guard let value = VersionRecord.value(of: field, in: view), value == VersionRecord.value(of: field, in: viewB),
                          recordB.version(of: field, in: viewB) == nil else { continue }
                    let replica: ReplicaID = changedSinceRecorded(field, in: viewB) ? .calendar : .calendarHeld
                    var version = Version(timestamp: HybridTimestamp(millis: field == .done ? completedB ?? timeB : timeB), replica: replica)
                    // A change the record proves came after the entry it names (within the same second of LAST-MODIFIED too).
                    if replica == .calendar, let entry = recordB.entries[VersionRecord.digest(field)], entry.version >= version {
                        version = Version(timestamp: entry.version.timestamp.successor, replica: .calendar)
                    }
                    // A value of b's that won over nextup's in this merge came after nextup's change of
                    // the field, which may lie in b's second of LAST-MODIFIED: dated so, the store takes it.
                    if let viewA, VersionRecord.value(of: field, in: viewA) != value,
                       let beaten = nextupTimes.filter({ Self.fields(of: $0.key, tags: tags).contains(field) }).values.max(),
                       version.timestamp.millis <= beaten {
                        version = Version(timestamp: HybridTimestamp(millis: beaten + 1), replica: replica)
                    }
                    phone.entries[VersionRecord.digest(field)] = VersionRecord.Entry(value: VersionRecord.digest(value), version: version)
                }
            }
            let record = VersionRecord.merged([VersionRecord(a), recordB, phone], holding: view).property
            if let i = merged.properties.firstIndex(where: { $0.name == name }) {
                if let record { merged.properties[i] = record } else { merged.properties.remove(at: i) }
            } else if let record {
                merged.properties.append(record)
            }
        }
        return merged
    }

    /// The properties that carry a completion, decided as one.
    static let statusGroup = ["STATUS", "COMPLETED", "PERCENT-COMPLETE"]

    /// The fields a VTODO property carries (`tags`: the tag names to look at for `CATEGORIES`).
    static func fields(of property: String, tags: Set<String>) -> [TaskField] {
        switch property {
        case "SUMMARY": return [.title]
        case "DESCRIPTION": return [.notes]
        case "PRIORITY": return [.importance]
        case "DUE": return [.due]
        case "DTSTART": return [.deferDate]
        case "RRULE": return [.recur]
        case "STATUS": return [.done, .deleted]
        case "COMPLETED", "PERCENT-COMPLETE": return [.done]
        case "CATEGORIES": return [.category] + tags.sorted().map(TaskField.tag)
        case "X-NEXTUP-URGENCY": return [.urgency]
        case "X-NEXTUP-DURATION": return [.duration]
        case "X-NEXTUP-CATEGORY": return [.category]
        case "X-NEXTUP-NEXT-UP": return [.nextUp]
        default: return []
        }
    }

    /// One property's lines: the side that changed it, or the newer change.
    func pick<T>(_ a: T, _ b: T, la: [String], lb: [String], baseLines: [String]?, oldsB: [[String]],
                 timeA: Int64?, timeB: Int64?, aFromCalendar: Bool = false, recordedB: Int64? = nil, takenB: Int64? = nil) -> T {
        if oldsB.contains(lb) {
            // b holds what a known version held: unchanged on b's side, unless
            // b's record dates that value after nextup's change, or a's value is
            // the calendar's from before b and b no longer holds it.
            if la != lb, let recordedB, recordedB > timeA ?? .min { return b }
            if aFromCalendar, la != lb, let timeA, let timeB, timeB > timeA { return b }
            return a
        }
        // b's value a store took before nextup's change: nextup's is newer, even where a's file looks unchanged.
        if let takenB, let timeA, takenB < timeA { return a }
        // a holds what the base held and the bridge wrote nothing else since: unchanged on a's side
        if let baseLines, la == baseLines, oldsB.allSatisfy({ $0 == baseLines }) { return b }
        return (timeA ?? .min) > (timeB ?? .min) ? a : b
    }

    func mergeSubcomponents(_ a: [ICalComponent], _ b: [ICalComponent], base: [ICalComponent]?, known: [[ICalComponent]],
                            timeB: Int64?) -> [ICalComponent] {
        if a == b { return b }
        if a.contains(where: { $0.name == "VTODO" }) || b.contains(where: { $0.name == "VTODO" }) {
            return mergeLists(a, b, base: base, known: known)
        }
        // Alarms and the like: the whole list as one property.
        let lb = b.map { $0.serialized() }
        let olds = known.map { $0.map { $0.serialized() } }
        return pick(a, b, la: a.map { $0.serialized() }, lb: lb, baseLines: base.map { $0.map { $0.serialized() } },
                    oldsB: olds, timeA: nil, timeB: timeB)
    }
}
