import NextUpCore

/// The versions nextup wrote a VTODO's values under, kept in the file as
/// `X-NEXTUP-VERSIONS` (the bridge of DESIGN.md §5b carries it; README
/// "Tasks on your phone" says what it cannot tell): per field whose value the file
/// holds as the writing store held it, a short digest of the field, one of
/// the value, and the register's version.
///
/// Why: the calendar is a replica of its own, versioned by the file's
/// `LAST-MODIFIED`; a value nextup wrote and a phone later left alone (it
/// edited another property) would otherwise be read as the phone's, at the
/// phone's later time, and beat a later nextup edit of that field on
/// another machine. A value that still matches its entry is a store's, under
/// the version recorded; one that does not (the phone changed it) is the
/// phone's, under `LAST-MODIFIED`.
///
/// Contract:
/// - Only a store writes it, from its task: every entry is a register's
///   true state (value and version), so merging it is what a peer sync of
///   that register would do.
/// - An entry whose value digest no longer matches the file's value claims
///   nothing (the phone changed that field); a missing or unreadable record
///   claims nothing.
/// - It is written only with another change: never the reason a file is
///   written.
public struct VersionRecord: Hashable, Sendable {
    /// The property's name.
    public static let propertyName = "X-NEXTUP-VERSIONS"

    public struct Entry: Hashable, Sendable {
        /// The digest of the value (``digest(_:)``).
        public var value: String
        public var version: Version
    }

    /// By the digest of the field's name.
    public var entries: [String: Entry]

    public init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// The record of the fields of `task` whose value `view` holds as the task does.
    public init(task: TaskItem, view: VTodoView) {
        var entries: [String: Entry] = [:]
        for (field, version) in task.versions {
            guard let value = Self.value(of: field, in: view), value == VTodoView.comparable(task, field) else { continue }
            entries[Self.digest(field)] = Entry(value: Self.digest(value), version: version)
        }
        self.init(entries: entries)
    }

    /// The record a VTODO holds (empty when it has none; unreadable entries are left out).
    public init(_ todo: ICalComponent) {
        var entries: [String: Entry] = [:]
        for word in (todo.property(Self.propertyName)?.text ?? "").split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1)
            let keys = parts.first?.split(separator: ".") ?? []
            guard parts.count == 2, keys.count == 2, keys.allSatisfy({ $0.count == Self.digestLength }),
                  let version = Version(encoded: String(parts[1])) else { continue }
            entries[String(keys[0])] = Entry(value: String(keys[1]), version: version)
        }
        self.init(entries: entries)
    }

    /// The version under which `view`'s value of `field` was written, when
    /// this record names that value.
    public func version(of field: TaskField, in view: VTodoView) -> Version? {
        guard let entry = entries[Self.digest(field)], let value = Self.value(of: field, in: view), entry.value == Self.digest(value) else { return nil }
        return entry.version
    }

    /// The version under which a store last took `view`'s value of `field`
    /// from the calendar, when this record shows that no store's later
    /// write of the field reached the file since (it names no entry for the
    /// field newer than that take): the phone has held the value since that
    /// take, and a later `LAST-MODIFIED` (an edit of another property) does
    /// not make it newer. Nil without a record (a client that drops nextup's
    /// properties tells nothing). `taken`: per field, the newest value the
    /// store took from a calendar's file (``calendarTakes(_:)``).
    public func takenVersion(of field: TaskField, in view: VTodoView, taken: [TaskField: Entry]) -> Version? {
        guard !entries.isEmpty, let value = Self.value(of: field, in: view), let take = taken[field], take.value == Self.digest(value),
              entries[Self.digest(field)].map({ $0.version <= take.version }) ?? true else { return nil }
        return take.version
    }

    /// Per field, the newest value a store's history took from a calendar's
    /// file (a version ``NextUpCore/ReplicaID/isCalendarValue``): what the
    /// phone held then.
    public static func calendarTakes(_ history: [HistoryEntry]) -> [TaskField: Entry] {
        var out: [TaskField: Entry] = [:]
        for entry in history where entry.version.replica.isCalendarValue && out[entry.field].map({ $0.version < entry.version }) ?? true {
            out[entry.field] = Entry(value: digest(VTodoView.comparable(entry.value, entry.field)), version: entry.version)
        }
        return out
    }

    /// Whether this record names `field` with another value than `view`'s
    /// (the value changed since a store wrote it).
    public func differs(_ field: TaskField, in view: VTodoView) -> Bool {
        guard let entry = entries[Self.digest(field)] else { return false }
        return Self.value(of: field, in: view).map { entry.value != Self.digest($0) } ?? true
    }

    /// The record of `view` made of these records' entries: per field, the
    /// newest entry that names `view`'s value. `view`'s tags and every known
    /// field are looked at.
    public static func merged(_ records: [VersionRecord], holding view: VTodoView) -> VersionRecord {
        var out: [String: Entry] = [:]
        for field in fields(of: view) {
            let versions = records.compactMap { $0.version(of: field, in: view) }
            guard let newest = versions.max(), let value = value(of: field, in: view) else { continue }
            out[digest(field)] = Entry(value: digest(value), version: newest)
        }
        return VersionRecord(entries: out)
    }

    /// `view`'s value of `field` as a record names it: a tag is whether
    /// `CATEGORIES` holds the name (unless `X-NEXTUP-CATEGORY` names it the
    /// category), so a file without `X-NEXTUP-CATEGORY` — whose first
    /// category would otherwise read as the category — means the same to
    /// the record whatever order a client puts its categories in.
    public static func value(of field: TaskField, in view: VTodoView) -> FieldValue? {
        guard let name = field.tagName else { return view.fieldValue(field) }
        return .bool(view.categories.contains(name) && view[.category] != name)
    }

    /// The fields a record of `view` may name: the known ones and its tags.
    static func fields(of view: VTodoView) -> [TaskField] {
        TaskField.known + view.categories.map(TaskField.tag)
    }

    /// The property (entries in key order), nil when empty.
    public var property: ICalProperty? {
        guard !entries.isEmpty else { return nil }
        let text = entries.sorted { $0.key < $1.key }.map { "\($0.key).\($0.value.value)=\($0.value.version.encoded)" }
        return ICalProperty(name: Self.propertyName, text: text.joined(separator: " "))
    }

    static let digestLength = 8

    static func digest(_ field: TaskField) -> String { digest(text: field.rawValue) }

    /// A value as a view gives it, kind and all.
    static func digest(_ value: FieldValue) -> String {
        let kind: String
        switch value {
        case .null: kind = "n"
        case .string: kind = "s"
        case .int: kind = "i"
        case .bool: kind = "b"
        case .json: kind = "j"
        }
        return digest(text: kind + ":" + value.description)
    }

    static func digest(text: String) -> String { String(SHA1.hex(Array(text.utf8)).prefix(digestLength)) }
}
