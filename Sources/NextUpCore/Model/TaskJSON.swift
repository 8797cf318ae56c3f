/// The JSON task object of DESIGN.md §4, used by `--json`, `export` and
/// `import`: `id, title, notes, urgency, importance, duration, category, due,
/// done, next_up, deleted, created, modified, completed_at` (plus `source`,
/// `external_id` and `tags`, and `extra` when the task has opaque fields).
/// Timestamps are RFC 3339, `due` is `YYYY-MM-DD`, `duration` is minutes,
/// `tags` a sorted array, and unset is `null`. The keys are the field table's
/// JSON keys (``FieldSpec/jsonKey``) plus the derived `id`, `done`,
/// `modified` and `tags`; a test walks the table against them.
public struct TaskJSON: Decodable, Equatable, Sendable {
    public var id: String?
    public var title: String
    public var notes: String?
    public var urgency: String?
    public var importance: Int?
    public var duration: Int?
    public var category: String?
    public var due: String?
    public var done: Bool?
    public var nextUp: Bool?
    public var deleted: Bool?
    public var created: String?
    public var modified: String?
    public var completedAt: String?
    public var source: String?
    public var externalID: String?
    /// The series' rule (``RecurrenceRule/rrule``; an import also takes
    /// people's words).
    public var recur: String?
    /// ``OccurrenceID``'s text.
    public var occurrence: String?
    /// The defer date, `YYYY-MM-DD`.
    public var deferDate: String?
    /// The tags; nil (or absent) leaves a task's tags as they are on import.
    public var tags: [String]?
    /// Registers that are not known fields (tag elements aside): written by a
    /// newer nextup, or kept from an import; passed on unchanged.
    public var extra: [String: FieldValue]?
    /// Each field's version (`<16 hex>@<replica>`, by register name): written
    /// by `export`, so that a backup is lossless and an import of an older file
    /// keeps newer values. Importers of the §4 objects may ignore it.
    public var versions: [String: String]?
    /// The task's order key in Next Up, written by `export` with `versions`
    /// (a task in Next Up only), so that an import into an empty store puts
    /// it back in its place under its own version.
    public var nextUpKey: String?

    enum CodingKeys: String, CodingKey {
        case id, title, notes, urgency, importance, duration, category, due, done
        case nextUp = "next_up", nextUpKey = "next_up_key", deleted, created, modified
        case completedAt = "completed_at", source
        case externalID = "external_id"
        case recur, occurrence, deferDate = "defer"
        case tags, extra, versions
    }

    /// A task object with only a title (every other key absent).
    public init(title: String) {
        self.title = title
    }

    /// The object of `t`; with `versions`, each field's version too (export).
    public init(_ t: TaskItem, versions withVersions: Bool = false) {
        id = t.id.rawValue
        title = t.title
        notes = t.notes.isEmpty ? nil : t.notes
        urgency = t.urgency?.rawValue
        importance = t.importance?.rawValue
        duration = t.duration?.minutes
        category = t.category
        due = t.due?.description
        done = t.isDone
        nextUp = t.isNextUp
        deleted = t.deleted
        created = Timestamps.rfc3339(t.created)
        modified = Timestamps.rfc3339(t.modified.millis)
        completedAt = t.completedAt.map(Timestamps.rfc3339)
        source = t.source
        externalID = t.externalID
        recur = t.recur?.rrule
        occurrence = t.occurrence?.description
        deferDate = t.deferDate?.description
        tags = t.tags
        if !t.extra.isEmpty {
            let opaque = t.extra.filter { $0.key.tagName == nil }
            extra = opaque.isEmpty ? nil : Dictionary(uniqueKeysWithValues: opaque.map { ($0.key.rawValue, $0.value) })
        }
        if withVersions {
            versions = Dictionary(uniqueKeysWithValues: t.versions.map { ($0.key.rawValue, $0.value.encoded) })
            nextUpKey = t.nextUpPosition
        }
    }
}
