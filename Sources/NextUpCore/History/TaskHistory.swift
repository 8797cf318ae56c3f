/// A task's history as people read it: every change of every field, newest
/// first, each with the value it replaced, whether it lost a race, and a
/// short handle to restore it by. A pure function of the set of entries.
///
/// Contract:
/// - **Same entries, same history.** ``lines(_:)`` depends only on the set
///   of entries (not their order, not duplicates), so replicas that received
///   the same changes, in any order, show the same lines.
/// - **Order.** Newest version first; one edit's fields (one version) in
///   field order.
/// - **Old value.** The value of the entry its writer had seen (the note's
///   seen version) when that entry is held, else the value of the field's
///   entry just before it, else the field's unset value when its writer
///   had seen the field never written (a value given to an existing task),
///   else none (a first value given at creation).
/// - **Races.** Entry `a` *lost a race* to entry `b` when both changed the
///   same field to different values, on different replicas, `b` is the later
///   version, and `b`'s writer had not seen `a` (its seen version is known
///   and older than `a`'s). `a`'s ``Line/lostTo`` is the earliest such `b`.
///   Nothing is said when a seen version is unknown (older logs).
/// - **Handles.** ``handle(of:current:)`` names an entry together with the
///   field's version at the time it was shown, so that a restore by handle
///   is refused once the field moved on (the stale-write rule).
public enum TaskHistory {
    /// One line of the history.
    public struct Line: Hashable, Sendable {
        public let entry: HistoryEntry
        /// The value the change replaced; nil for the field's first value.
        public let old: FieldValue?
        /// The later concurrent change this one lost to; nil when none.
        public let lostTo: Version?
        /// Whether the field holds this entry's value now (its newest entry).
        public let isCurrent: Bool
    }

    /// The history of one task from its entries (see the contract).
    public static func lines(_ entries: some Sequence<HistoryEntry>) -> [Line] {
        var unique: [TaskField: [Version: HistoryEntry]] = [:]
        for entry in entries {
            if let held = unique[entry.field]?[entry.version] {
                // One change met twice: the same value (a version names one write); the notes joined.
                var joined = held
                joined.note = joinedNote(held.note, entry.note)
                if Merge.valueOrder(held.value, entry.value) { joined = HistoryEntry(field: entry.field, value: entry.value, version: entry.version, note: joined.note) }
                unique[entry.field]![entry.version] = joined
            } else {
                unique[entry.field, default: [:]][entry.version] = entry
            }
        }
        var lines: [Line] = []
        for (_, byVersion) in unique {
            let ordered = byVersion.values.sorted { $0.version < $1.version }
            for (index, entry) in ordered.enumerated() {
                var old: FieldValue? = index > 0 ? ordered[index - 1].value : nil
                if case .version(let seen)? = entry.note?.seen, let held = byVersion[seen] { old = held.value }
                // A first value given to a task that already was: it replaced the field's unset value.
                if old == nil, entry.note?.seen == .nothing { old = entry.field.spec?.cleared ?? .null }
                let lostTo = ordered[(index + 1)...].first { later in
                    later.version.replica != entry.version.replica && later.value != entry.value
                        && !(later.note?.seen.map { $0.covers(entry.version) } ?? true)
                }?.version
                lines.append(Line(entry: entry, old: old, lostTo: lostTo, isCurrent: index == ordered.count - 1))
            }
        }
        return lines.sorted { a, b in
            a.entry.version != b.entry.version ? a.entry.version > b.entry.version : a.entry.field < b.entry.field
        }
    }

    private static func joinedNote(_ a: ChangeNote?, _ b: ChangeNote?) -> ChangeNote? {
        switch (a, b) {
        case (let a?, let b?): a.joined(b)
        case (let a, let b): a ?? b
        }
    }

    /// Each field's newest version in `lines` (what a handle names with an entry).
    public static func currentVersions(_ lines: [Line]) -> [TaskField: Version] {
        Dictionary(lines.filter(\.isCurrent).map { ($0.entry.field, $0.entry.version) }, uniquingKeysWith: { a, _ in a })
    }

    /// The handle of `entry` as shown while its field's newest version was
    /// `current`: 8 hex digits (FNV-1a of both), the same on every machine.
    public static func handle(of entry: HistoryEntry, current: Version) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in entry.field.rawValue.utf8 + [0] + entry.version.encoded.utf8 + [0] + current.encoded.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

extension TaskHistory {
    /// What a change did, in words: `title: “a” → “b”`, `tag work added`,
    /// `done` (the command line's history and the TUI's say the same).
    public static func words(_ field: TaskField, old: FieldValue?, new: FieldValue) -> String {
        if let tag = field.tagName { return "tag \(Sanitizer.visible(tag)) \(new == .bool(true) ? "added" : "removed")" }
        switch field {
        case .done: return new == .null ? "reopened" : "done"
        case .deleted: return new == .bool(true) ? "deleted" : "restored"
        case .nextUp: return new == .null ? "out of Next Up" : (old == nil || old == .null ? "into Next Up" : "moved in Next Up")
        case .created: return "created"
        default: break
        }
        let was = old.map { field.words(for: $0) + " → " } ?? ""
        return "\(field.spokenName): \(was)\(field.words(for: new))"
    }
}

extension TaskHistory {
    /// What a handle names in a task's history now.
    public enum Found: Equatable, Sendable {
        /// The entry, shown while its field held `current` — which it still holds.
        case entry(HistoryEntry, current: Version)
        /// An entry shown while its field held an earlier version: the field
        /// moved on since the history was shown.
        case stale(HistoryEntry, now: Line)
        /// No entry of this task has that handle.
        case none
    }

    /// Looks up `handle` (``handle(of:current:)``) in `lines`.
    public static func find(_ handle: String, in lines: [Line]) -> Found {
        let wanted = handle.lowercased()
        var current: [TaskField: Line] = [:]
        for line in lines where line.isCurrent { current[line.entry.field] = line }
        for line in lines {
            guard let now = current[line.entry.field] else { continue }
            if Self.handle(of: line.entry, current: now.entry.version) == wanted { return .entry(line.entry, current: now.entry.version) }
        }
        // Shown while the field held another of its versions.
        for line in lines {
            guard let now = current[line.entry.field] else { continue }
            for earlier in lines where earlier.entry.field == line.entry.field && earlier.entry.version < now.entry.version {
                if Self.handle(of: line.entry, current: earlier.entry.version) == wanted { return .stale(line.entry, now: now) }
            }
        }
        return .none
    }
}
