/// The name of one register of a task: a field that can change, with its own
/// version (DESIGN.md §2).
///
/// Three kinds of names:
/// - the **known fields** of this build (``known``), each declared once in the
///   field table (``FieldSpec``) with its JSON key, store column, validation
///   and how it reads and writes a ``TaskItem``;
/// - **tag elements**, `tag:<name>`: one register per tag of the set-valued
///   `tags` field, holding `true` (present) or `false` (removed), so that
///   concurrent additions on two replicas all survive and a removal wins only
///   over what it saw;
/// - **opaque fields**: any other well-formed name, written by a newer nextup
///   (or kept from an import), stored, merged and passed on with its version,
///   never dropped.
///
/// The names are the field names of the peer-folder log and of the store's
/// version map; they never change once released.
public struct TaskField: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String
    /// The field's row in the field table; `Int.max` for any other register.
    /// A function of `rawValue` (so equality and hashing agree), kept here so
    /// that ordering fields (every log line, every version map) compares
    /// integers, not names.
    let ordinal: Int

    /// A register name: 1…200 bytes of UTF-8 with no control character, no
    /// white space and no comma (the store's version map separates entries
    /// with commas). Nil for anything else.
    public init?(rawValue: String) {
        // Known names (almost every name read from the store or a log) skip
        // the scalar-by-scalar check.
        if let known = FieldSpec.byName[rawValue] {
            self = known
            return
        }
        guard Self.isWellFormed(rawValue) else { return nil }
        self.rawValue = rawValue
        ordinal = .max
    }

    private init(known: String, _ ordinal: Int = .max) {
        rawValue = known
        self.ordinal = ordinal
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let field = TaskField(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a field name"))
        }
        self = field
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    public var description: String { rawValue }

    // Known fields compare and hash by their ordinal (a function of the
    // name): every version map and change list is keyed by fields, and
    // hashing the name's bytes was a tenth of an import.
    public static func == (lhs: TaskField, rhs: TaskField) -> Bool {
        lhs.ordinal != .max || rhs.ordinal != .max ? lhs.ordinal == rhs.ordinal : lhs.rawValue == rhs.rawValue
    }
    public func hash(into hasher: inout Hasher) {
        if ordinal != .max { hasher.combine(ordinal) } else { hasher.combine(rawValue) }
    }

    public static let title = TaskField(known: "title", 0)
    public static let notes = TaskField(known: "notes", 1)
    public static let urgency = TaskField(known: "urgency", 2)
    public static let importance = TaskField(known: "importance", 3)
    public static let duration = TaskField(known: "duration", 4)
    public static let category = TaskField(known: "category", 5)
    public static let due = TaskField(known: "due", 6)
    /// The completion time in milliseconds, or null when not done.
    public static let done = TaskField(known: "done", 7)
    /// The Next Up order key, or null when the task is in the Backlog.
    public static let nextUp = TaskField(known: "next_up", 8)
    public static let deleted = TaskField(known: "deleted", 9)
    public static let created = TaskField(known: "created", 10)
    public static let source = TaskField(known: "source", 11)
    public static let externalID = TaskField(known: "external_id", 12)
    /// A series' rule, its canonical RRULE text (``RecurrenceRule/rrule``);
    /// null for a task that does not recur, or once its series is stopped.
    public static let recur = TaskField(known: "recur", 13)
    /// Which occurrence of which series the task is (``OccurrenceID``'s
    /// text); kept after the series stops, so its history stays one series.
    public static let occurrence = TaskField(known: "occurrence", 14)
    /// The local date before which the task is in neither list (`defer`,
    /// `YYYY-MM-DD` as `due`).
    public static let deferDate = TaskField(known: "defer", 15)

    /// The known fields, in the order of the field table.
    public static var known: [TaskField] { FieldSpec.table.map(\.field) }

    /// Whether `a`'s name comes before `b`'s in the byte order of their UTF-8
    /// (the order JSON's `.sortedKeys` writes registers in); two known fields
    /// are compared by a rank made once from their names.
    public static func precedesInByteOrder(_ a: TaskField, _ b: TaskField) -> Bool {
        if a.ordinal < byteOrderRanks.count, b.ordinal < byteOrderRanks.count { return byteOrderRanks[a.ordinal] < byteOrderRanks[b.ordinal] }
        return a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8)
    }

    /// For each known field's ordinal, its place among the known fields'
    /// names in byte order.
    private static let byteOrderRanks: [Int] = {
        let fields = known
        var ranks = [Int](repeating: 0, count: fields.count)
        let order = fields.indices.sorted { fields[$0].rawValue.utf8.lexicographicallyPrecedes(fields[$1].rawValue.utf8) }
        for (rank, index) in order.enumerated() { ranks[fields[index].ordinal] = rank }
        return ranks
    }()

    /// The fields that make a task TBD while any is unset.
    public static var triage: [TaskField] { FieldSpec.table.filter(\.triage).map(\.field) }

    /// This field's entry in the field table, or nil for a tag element or an
    /// opaque field.
    public var spec: FieldSpec? { ordinal < FieldSpec.table.count ? FieldSpec.table[ordinal] : nil }
    public var isKnown: Bool { ordinal != .max }
    /// This field's row in the field table (``FieldSpec/table``), nil for a
    /// tag element or an opaque field: the store's column of a known field.
    /// Known fields sort by it, before every other.
    public var tableIndex: Int? { ordinal != .max ? ordinal : nil }

    /// The prefix of tag-element registers.
    public static let tagPrefix = "tag:"

    /// The register of one tag (the name as given: see ``TaskText/tag(_:)``).
    public static func tag(_ name: String) -> TaskField { TaskField(known: tagPrefix + name) }

    /// The tag's name when this is a tag-element register.
    public var tagName: String? {
        rawValue.hasPrefix(Self.tagPrefix) && rawValue.utf8.count > Self.tagPrefix.utf8.count
            ? String(rawValue.dropFirst(Self.tagPrefix.count)) : nil
    }

    /// The largest opaque value accepted, in bytes of its text (it must fit a log line).
    public static let maxOpaqueBytes = 64 * 1024

    /// Whether `value` is a well-formed value for this register. Values
    /// failing this (from a damaged or hostile log) are never merged.
    public func accepts(_ value: FieldValue) -> Bool {
        // The table's closure read in place (a FieldSpec copied out to call
        // its method retained every closure it holds, per field written).
        if isKnown { return FieldSpec.table[ordinal].acceptsValue(value) }
        if tagName != nil {
            if case .bool = value { return true }
            return false
        }
        if case .string(let s) = value { return s.utf8.count <= Self.maxOpaqueBytes }
        if case .json(let text) = value { return text.utf8.count <= Self.maxOpaqueBytes }
        return true
    }

    /// Known fields in table order, then every other register by name.
    public static func < (lhs: TaskField, rhs: TaskField) -> Bool {
        lhs.ordinal != rhs.ordinal ? lhs.ordinal < rhs.ordinal : lhs.rawValue < rhs.rawValue
    }

    /// A register name: no comma, no control character, no white space but
    /// single spaces inside a tag's name (`tag:Home Office`, as phones and
    /// Taskwarrior write tags; `series:tag:Home Office`).
    static func isWellFormed(_ name: String) -> Bool {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= 200 else { return false }
        // A tag's register, or the series' register of one (`series:tag:…`).
        let tag = name.hasPrefix(seriesPrefix) ? name.dropFirst(seriesPrefix.count) : Substring(name)
        let spaced = tag.hasPrefix(tagPrefix) && !tag.hasSuffix(" ") && !tag.dropFirst(tagPrefix.count).hasPrefix(" ")
        for scalar in name.unicodeScalars {
            if scalar == " ", spaced { continue }
            if scalar.value < 0x21 || scalar.value == 0x7F || scalar == "," { return false }
            // Every ASCII white space lies below 0x21.
            if scalar.value >= 0x80, scalar.properties.isWhitespace { return false }
        }
        return true
    }
}
