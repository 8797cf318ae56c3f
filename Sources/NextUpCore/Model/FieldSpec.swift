/// The field table: every known field of a task, declared once — its register
/// name, its key in the JSON task object (DESIGN.md §4), its store column, its
/// value kind, whether it is a triage attribute, how a person sets it on the
/// command line, which values it accepts, and how it reads and writes a
/// ``TaskItem``.
///
/// Contract: ``TaskItem/value(of:)`` and ``TaskItem/set(_:to:)`` are derived
/// from this table, and so are the store's columns; the JSON reader and writer
/// (hand-written on bytes for speed), the import plan, the log codec and the
/// CLI's `edit` options are held to it by a test that walks the table
/// (`FieldTableTests`). Adding a field is adding a row here (see
/// docs/ARCHITECTURE.md, "Adding a field").
public struct FieldSpec: Sendable {
    public enum Kind: Sendable, Equatable {
        /// JSON string, SQL TEXT.
        case text
        /// JSON integer, SQL INTEGER.
        case integer
        /// JSON boolean, SQL INTEGER 0/1.
        case boolean
    }

    public let field: TaskField
    /// The key that carries this field in the JSON task object.
    public let jsonKey: String
    /// The column of the store's `task` table that holds the value.
    public let column: String
    public let kind: Kind
    /// Unset makes a task TBD.
    public let triage: Bool
    /// The `nextup edit` option that sets it from text (`--<option>`), if any.
    public let option: String?
    /// Whether `none` clears it (a real, versioned write of unset).
    public let clearable: Bool
    /// The value `none` writes: null, or the empty text for notes.
    public var cleared: FieldValue { kind == .text && field == .notes ? .string("") : .null }
    /// Text a person typed → the register's value; throws a one-line
    /// ``TaskInputError``. `today` (the person's local date) is for relative
    /// dates. Nil for fields not typed directly.
    public let parse: (@Sendable (_ text: String, _ today: DueDate) throws -> FieldValue)?
    let acceptsValue: @Sendable (FieldValue) -> Bool
    let get: @Sendable (TaskItem) -> FieldValue
    let set: @Sendable (inout TaskItem, FieldValue) -> Void

    /// Whether `value` is well formed for this field.
    public func accepts(_ value: FieldValue) -> Bool { acceptsValue(value) }

    /// The table, in the order fields are listed everywhere.
    public static let table: [FieldSpec] = [
        FieldSpec(.title, json: "title", column: "title", .text, option: "title", clearable: false,
                  parse: { text, _ in .string(try TaskText.title(text)) },
                  accepts: { if case .string(let s) = $0 { return !s.isEmpty && TaskText.fits(s, characters: TaskText.maxTitleLength, bytes: TaskText.maxTitleBytes) }; return false },
                  get: { .string($0.title) }, set: { $0.title = $1.stringValue ?? "" }),
        FieldSpec(.notes, json: "notes", column: "notes", .text, option: "notes", clearable: true,
                  parse: { text, _ in .string(try TaskText.notes(text)) },
                  accepts: { if case .string(let s) = $0 { return TaskText.fits(s, characters: TaskText.maxNotesLength, bytes: TaskText.maxNotesBytes) }; return false },
                  get: { .string($0.notes) }, set: { $0.notes = $1.stringValue ?? "" }),
        FieldSpec(.urgency, json: "urgency", column: "urgency", .text, triage: true, option: "urgency",
                  parse: { text, _ in .string(try Urgency.parse(text).rawValue) },
                  accepts: { optional($0) { Urgency(rawValue: $0) != nil } },
                  get: { $0.urgency.map { .string($0.rawValue) } ?? .null },
                  set: { $0.urgency = $1.stringValue.flatMap(Urgency.init(rawValue:)) }),
        FieldSpec(.importance, json: "importance", column: "importance", .integer, triage: true, option: "importance",
                  parse: { text, _ in .int(Int64(try Importance.parse(text).rawValue)) },
                  accepts: { optionalInt($0) { Importance(rawValue: Int($0)) != nil } },
                  get: { $0.importance.map { .int(Int64($0.rawValue)) } ?? .null },
                  set: { $0.importance = $1.intValue.flatMap { Importance(rawValue: Int($0)) } }),
        FieldSpec(.duration, json: "duration", column: "duration", .integer, triage: true, option: "duration",
                  parse: { text, _ in .int(Int64(try TaskDuration.parse(text).minutes)) },
                  accepts: { optionalInt($0) { TaskDuration.range.contains(Int($0)) } },
                  get: { $0.duration.map { .int(Int64($0.minutes)) } ?? .null },
                  set: { $0.duration = $1.intValue.flatMap { try? TaskDuration(minutes: Int($0)) } }),
        FieldSpec(.category, json: "category", column: "category", .text, triage: true, option: "category",
                  parse: { text, _ in .string(try TaskText.category(text)) },
                  accepts: { optional($0) { !$0.isEmpty && TaskText.fits($0, characters: TaskText.maxCategoryLength, bytes: TaskText.maxCategoryBytes) } },
                  get: { $0.category.map { .string($0) } ?? .null }, set: { $0.category = $1.stringValue }),
        FieldSpec(.due, json: "due", column: "due", .text, option: "due",
                  parse: { text, today in .string(try DueDate.parse(text, today: today).description) },
                  accepts: { optional($0) { (try? DueDate.parse($0))?.description == $0 } },
                  get: { $0.due.map { .string($0.description) } ?? .null },
                  set: { $0.due = $1.stringValue.flatMap { try? DueDate.parse($0) } }),
        FieldSpec(.done, json: "completed_at", column: "completed_at", .integer, option: nil,
                  accepts: { optionalInt($0) { $0 >= 0 } },
                  get: { $0.completedAt.map { .int($0) } ?? .null }, set: { $0.completedAt = $1.intValue }),
        FieldSpec(.nextUp, json: "next_up", column: "next_up", .text, option: nil,
                  accepts: { optional($0, OrderKey.isValid) },
                  get: { $0.nextUpPosition.map { .string($0) } ?? .null }, set: { $0.nextUpPosition = $1.stringValue }),
        FieldSpec(.deleted, json: "deleted", column: "deleted", .boolean, option: nil,
                  accepts: { if case .bool = $0 { return true }; return false },
                  get: { .bool($0.deleted) }, set: { if case .bool(let b) = $1 { $0.deleted = b } }),
        FieldSpec(.created, json: "created", column: "created", .integer, option: nil,
                  accepts: { if case .int(let n) = $0 { return n >= 0 }; return false },
                  get: { .int($0.created) }, set: { $0.created = $1.intValue ?? 0 }),
        FieldSpec(.source, json: "source", column: "source", .text, option: nil,
                  accepts: { optional($0) { TaskText.fits($0, characters: TaskText.maxLabelLength, bytes: TaskText.maxLabelBytes) } },
                  get: { $0.source.map { .string($0) } ?? .null }, set: { $0.source = $1.stringValue }),
        FieldSpec(.externalID, json: "external_id", column: "external_id", .text, option: nil,
                  accepts: { optional($0) { TaskText.fits($0, characters: TaskText.maxLabelLength, bytes: TaskText.maxLabelBytes) } },
                  get: { $0.externalID.map { .string($0) } ?? .null }, set: { $0.externalID = $1.stringValue }),
        // A rule typed in either spelling is stored as its canonical RRULE;
        // the store's intents anchor it at the series' first due date and
        // start the series (`occurrence`) when a task first gets one.
        FieldSpec(.recur, json: "recur", column: "recur", .text, option: "recur",
                  parse: { text, _ in .string(try RecurrenceRule.parse(text).rrule) },
                  accepts: { optional($0) { (try? RecurrenceRule.parseRRULE($0))?.rrule == $0 } },
                  get: { $0.recur.map { .string($0.rrule) } ?? .null },
                  set: { $0.recur = $1.stringValue.flatMap { try? RecurrenceRule.parseRRULE($0) } }),
        FieldSpec(.occurrence, json: "occurrence", column: "occurrence", .text, option: nil,
                  accepts: { optional($0) { OccurrenceID($0)?.description == $0 } },
                  get: { $0.occurrence.map { .string($0.description) } ?? .null },
                  set: { $0.occurrence = $1.stringValue.flatMap(OccurrenceID.init) }),
        FieldSpec(.deferDate, json: "defer", column: "defer", .text, option: "defer",
                  parse: { text, today in .string(try DueDate.parse(text, today: today).description) },
                  accepts: { optional($0) { (try? DueDate.parse($0))?.description == $0 } },
                  get: { $0.deferDate.map { .string($0.description) } ?? .null },
                  set: { $0.deferDate = $1.stringValue.flatMap { try? DueDate.parse($0) } }),
    ]

    static let byName: [String: TaskField] = Dictionary(uniqueKeysWithValues: table.map { ($0.field.rawValue, $0.field) })

    private init(_ field: TaskField, json: String, column: String, _ kind: Kind, triage: Bool = false,
                 option: String?, clearable: Bool = true,
                 parse: (@Sendable (String, DueDate) throws -> FieldValue)? = nil,
                 accepts: @escaping @Sendable (FieldValue) -> Bool,
                 get: @escaping @Sendable (TaskItem) -> FieldValue,
                 set: @escaping @Sendable (inout TaskItem, FieldValue) -> Void) {
        self.field = field
        self.jsonKey = json
        self.column = column
        self.kind = kind
        self.triage = triage
        self.option = option
        self.clearable = clearable && option != nil
        self.parse = parse
        self.acceptsValue = accepts
        self.get = get
        self.set = set
    }

    /// Null, or a string `check` accepts.
    private static func optional(_ value: FieldValue, _ check: (String) -> Bool) -> Bool {
        switch value {
        case .null: return true
        case .string(let s): return check(s)
        default: return false
        }
    }

    /// Null, or an integer `check` accepts.
    private static func optionalInt(_ value: FieldValue, _ check: (Int64) -> Bool) -> Bool {
        switch value {
        case .null: return true
        case .int(let n): return check(n)
        default: return false
        }
    }
}
