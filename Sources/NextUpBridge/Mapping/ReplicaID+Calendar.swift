import NextUpCore

extension ReplicaID {
    /// The replica a phone's change is versioned under: the calendar itself
    /// (DESIGN.md §5b). A change the bridge takes from a file carries
    /// (the file's `LAST-MODIFIED`, this id), so two machines taking the same
    /// phone edit write the same value under the same version. Name-based
    /// (the same on every machine), and never a store's own id: no log is
    /// ever written under it, so the sync's rules for a peer's log never
    /// apply to it.
    public static let calendar = nameBased("calendar")

    /// The replica of a value a phone's file held that no record named and
    /// no change proves: the calendar held it at that time, but it may be
    /// older. A merge stamps it so (``calendar``'s rules apply to it), and
    /// never trusts it as the date of a change.
    public static let calendarHeld = nameBased("calendar held")

    /// The replica a phone's removal of an item is versioned under: a task
    /// deleted because its file vanished from a vdir. Another machine whose
    /// vdir still holds the file removes it too, instead of writing it back
    /// as `STATUS:CANCELLED` (which vdirsyncer would upload, bringing the
    /// task back to the phone).
    public static let calendarRemoval = nameBased("calendar removal")

    /// What the history calls the calendar's replicas.
    public static let calendarNames: [ReplicaID: String] = [calendar: "phone", calendarHeld: "phone", calendarRemoval: "phone"]

    /// Whether changes under this id come from a calendar, not from a store.
    public var isCalendar: Bool { isCalendarValue || self == .calendarRemoval }

    /// Whether a value under this id was taken from a calendar's file.
    public var isCalendarValue: Bool { self == .calendar || self == .calendarHeld }

    static func nameBased(_ name: String) -> ReplicaID {
        ReplicaID(TaskID.forVTodoUID("nextup replica: " + name).rawValue)!
    }
}
