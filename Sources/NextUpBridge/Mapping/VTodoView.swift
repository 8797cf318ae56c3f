import NextUpCore

/// What a VTODO says about a task, in nextup's terms (DESIGN.md §5b): the
/// mapped properties, normalised as the store would hold them, so that two
/// views compare equal exactly when they would make the same task.
///
/// The mapping: `SUMMARY` title; `DESCRIPTION` notes; `PRIORITY` 1–4 / 5 /
/// 6–9 ↔ importance 3 / 2 / 1 (0 or absent: unset); `CATEGORIES` the category
/// and the tags; `DUE` a date; `STATUS:COMPLETED` (or a `COMPLETED` time) ↔
/// done at that time; `STATUS:CANCELLED` ↔ deleted; and the attributes no
/// standard property carries in ``extensions`` (`X-NEXTUP-URGENCY`,
/// `-DURATION`, `-CATEGORY`, `-NEXT-UP`).
///
/// Contract: an extension property absent from a file is *absent* from its
/// view (a client that drops `X-` properties says nothing about them), while
/// one present with an empty value says "unset". `DTSTAMP`, `LAST-MODIFIED`,
/// `CREATED` and `SEQUENCE` are not part of a view: a file that differs only
/// in them says nothing new.
public struct VTodoView: Hashable, Codable, Sendable {
    public var uid: String
    public var title: String
    public var notes: String = ""
    /// 1 (low) … 3 (high).
    public var importance: Int?
    /// `YYYY-MM-DD`.
    public var due: String?
    /// The defer date (`DTSTART`'s local date), `YYYY-MM-DD`.
    public var start: String?
    /// The `RRULE` in nextup's canonical text (``NextUpCore/RecurrenceRule/rrule``)
    /// as the file states it, anchored or not; nil when absent or not a rule
    /// nextup can hold.
    public var rrule: String?
    /// Milliseconds since the epoch, whole seconds (the precision of iCalendar).
    public var completedAt: Int64?
    public var cancelled = false
    /// Every `CATEGORIES` value, in file order, without duplicates.
    public var categories: [String] = []
    /// The `X-NEXTUP-…` properties present, by ``Extension`` raw value; an
    /// empty string is "unset".
    public var extensions: [String: String] = [:]

    public init(uid: String, title: String) {
        self.uid = uid
        self.title = title
    }

    /// The attributes carried in `X-NEXTUP-…` properties.
    public enum Extension: String, CaseIterable, Sendable {
        case urgency = "X-NEXTUP-URGENCY"
        case duration = "X-NEXTUP-DURATION"
        case category = "X-NEXTUP-CATEGORY"
        case nextUp = "X-NEXTUP-NEXT-UP"
    }

    public subscript(_ ext: Extension) -> String? {
        get { extensions[ext.rawValue] }
        set { extensions[ext.rawValue] = newValue }
    }

    /// The title given to a VTODO without a `SUMMARY` (a task must have one).
    public static let untitled = "(untitled)"
}
