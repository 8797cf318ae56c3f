import Foundation
import GRDB
import NextUpCore

extension TaskStore {
    /// What an import did.
    public struct ImportSummary: Sendable, Equatable {
        public var created = 0
        public var updated = 0
        public var unchanged = 0
        /// Tasks left as they are because the store's values are newer than
        /// the file's. Each task is counted once: created, updated (a field
        /// changed, though others may have been kept), kept or unchanged.
        public var kept = 0
        /// With `overwrite`: each field replaced although the store's value
        /// was newer (task, field, the value it had).
        public var overwritten: [(task: TaskID, field: TaskField, was: FieldValue)] = []
        /// How far the file's newest version (or `modified`) lies ahead of
        /// this machine's clock, when beyond ``HybridClock/skewTolerance``:
        /// written by a clock that runs ahead (imported all the same).
        public var aheadMillis: Int64?

        public static func == (a: ImportSummary, b: ImportSummary) -> Bool {
            a.created == b.created && a.updated == b.updated && a.unchanged == b.unchanged && a.kept == b.kept
                && a.overwritten.map { "\($0.task)\($0.field)\($0.was)" } == b.overwritten.map { "\($0.task)\($0.field)\($0.was)" }
        }
    }

    /// One validated import record.
    struct ImportPlan {
        let id: TaskID
        let fields: [(TaskField, FieldValue)]
        let done: Bool
        let completedAt: Int64?
        let nextUp: Bool
        let modified: Int64?
        /// The tags the record names; nil leaves the task's tags as they are.
        let tags: [String]?
        /// The record's field versions (from an export), by field.
        let versions: [TaskField: Version]
        /// The record's Next Up order key (from an export).
        let nextUpKey: String?

        /// Whether the record says exactly where the task stands in Next Up
        /// and under which version (an export: a backup restores exactly).
        var exactNextUp: Bool { versions[.nextUp] != nil && (!nextUp || nextUpKey != nil) }

        /// The values the record asks of its task, `existing` (nil: a task
        /// to create): its fields, then done, Next Up (`nextUpKey`, the place
        /// kept for it when it joins) and its tag set where they differ from
        /// the task's, and for a new task its creation time (`now` when the
        /// record has none).
        func fields(over existing: TaskItem?, nextUpKey: String?, now: Int64) -> [(TaskField, FieldValue)] {
            var fields = self.fields
            if done != (existing?.isDone ?? false) {
                fields.append((.done, done ? .int(completedAt ?? now) : .null))
            }
            if exactNextUp {
                fields.append((.nextUp, nextUp ? .string(self.nextUpKey!) : .null))
            } else if nextUp != (existing?.isNextUp ?? false) {
                fields.append((.nextUp, nextUp ? .string(nextUpKey!) : .null))
            }
            if let tags {
                // The record's tag set: its tags present, any other the task has removed.
                let wanted = Set(tags.map(TextMatch.caseFold))
                for tag in tags { fields.append((.tag(tag), .bool(true))) }
                for tag in existing?.tags ?? [] where !wanted.contains(TextMatch.caseFold(tag)) { fields.append((.tag(tag), .bool(false))) }
                // A tag removed before the export: its register, absent, with its version.
                for field in versions.keys.sorted() where field.tagName != nil && !fields.contains(where: { $0.0 == field }) {
                    fields.append((field, .bool(false)))
                }
            }
            if existing == nil, !fields.contains(where: { $0.0 == .created }) { fields.append((.created, .int(now))) }
            return fields
        }

        /// When the file's value of `field` was written: its version, else the
        /// record's `modified`; nil when the record says neither.
        func fileTime(_ field: TaskField) -> HybridTimestamp? {
            versions[field]?.timestamp ?? modified.map { HybridTimestamp(millis: $0) }
        }

        /// Whether the file dates `field` only by a `modified` in whole
        /// seconds (Taskwarrior's) that falls in the second of `time`: its
        /// change may have come later within that second.
        func datesOnlyBySecond(_ field: TaskField, within time: HybridTimestamp) -> Bool {
            guard versions[field] == nil, let modified, modified % 1000 == 0 else { return false }
            return time.millis / 1000 == modified / 1000
        }
    }

    /// Imports task objects (DESIGN.md §4), matching by `id`.
    ///
    /// Every record is validated first; one bad record rejects the whole
    /// import with a message naming it (`item N: …`) and nothing is written.
    /// A field of a known task takes the file's value only when it is newer
    /// than the store's (the record's per-field `versions`, else its
    /// `modified`, else taken as newer), unless `overwrite` is asked for, which
    /// lists every newer value it replaced. A new task keeps its id, `created`,
    /// `completed_at` and `modified`; a record without an id gets a stable one.
    /// Importing the same records again changes nothing. It is one local
    /// write transaction, published like any other edit; with `overwrite`
    /// it is journaled, so that `nextup undo` takes it back whole.
    public func importTasks(_ records: consuming [TaskJSON], overwrite: Bool = false) throws -> ImportSummary {
        try importTasks(plans: Self.plans(consume records, now: clock.nowMillis()), overwrite: overwrite)
    }

    /// Validates `records` (see ``importTasks(_:overwrite:)``), then opens the
    /// store at `location` and imports them: a rejected file leaves no store
    /// behind where there was none. The records are freed once planned
    /// (when the caller keeps no copy), so the write reuses their memory.
    public static func openImporting(_ location: StoreLocation, _ records: consuming [TaskJSON], overwrite: Bool = false,
                                     clock: any PhysicalClock = SystemClock()) throws -> (store: TaskStore, summary: ImportSummary) {
        let plans = try plans(consume records, now: clock.nowMillis())
        let store = try open(location, clock: clock)
        return (store, try store.importTasks(plans: plans, overwrite: overwrite))
    }

    /// Writes validated records: in one transaction, in the table's row
    /// order. Into an empty table, the secondary indexes are dropped first
    /// and built once at the end.
    func importTasks(plans: [ImportPlan], overwrite: Bool) throws -> ImportSummary {
        try writeSession(records: plans.count, origin: .import) { session in
            let db = session.db
            let empty = try Row.fetchOne(db, sql: "SELECT 1 FROM task LIMIT 1") == nil
            let dropped = empty ? try Self.dropTaskIndexes(db) : []
            // Without indexes, rows in id order only append: SQLite's default
            // cache does, spilling finished pages to the WAL as it goes.
            if empty { try db.execute(sql: "PRAGMA cache_size = -2000") }
            // Next Up keys follow the file's order.
            var nextUpKeys: [Int: String] = [:]
            var bottom: String?
            for index in plans.indices where plans[index].nextUp && !plans[index].exactNextUp {
                bottom = OrderKey.between(try bottom ?? Self.lastNextUpKey(db), nil)
                nextUpKeys[index] = bottom
            }
            var summary = ImportSummary()
            // With `overwrite`, what the import did, for `nextup undo`.
            var journal: [(before: TaskItem, made: Bool, changes: [FieldChange])] = []
            for index in Self.rowOrder(plans.map(\.id)) {
                let plan = plans[index]
                let existing = empty ? nil : try TaskRow.fetchOne(db, id: plan.id)
                var task = existing ?? TaskItem(id: plan.id)
                var kept = false
                // Merged like a sync: the store's newer values stay. A value the
                // file has a version for is merged with that version (lossless);
                // any other is written as a local edit.
                var merged: [FieldChange] = []
                var local: [(TaskField, FieldValue)] = []
                for (field, value) in plan.fields(over: existing, nextUpKey: nextUpKeys[index], now: session.now) {
                    let version = plan.versions[field].flatMap { field != .nextUp || plan.exactNextUp ? $0 : nil }
                    if task.value(of: field) == value {
                        // The same value: only a newer version of it is news
                        // (a value set back to its default, a removed tag),
                        // kept so that a backup restores exactly.
                        if let version, task.versions[field].map({ $0 < version }) ?? true {
                            merged.append(FieldChange(task: task.id, field: field, value: value, version: version))
                        }
                        continue
                    }
                    // A file dated in whole seconds, in the second of the store's write, is
                    // older only when its value is one the field held before (a copy from
                    // before that write); a value new to the field was changed after it.
                    if let held = task.versions[field], let fileTime = plan.fileTime(field), fileTime <= held.timestamp,
                       try !plan.datesOnlyBySecond(field, within: held.timestamp) || HistoryTable.heldBefore(value, as: field, of: task.id, db) {
                        guard overwrite else { kept = true; continue }
                        summary.overwritten.append((task.id, field, task.value(of: field)))
                        local.append((field, value))
                    } else if let version {
                        merged.append(FieldChange(task: task.id, field: field, value: value, version: version))
                    } else {
                        local.append((field, value))
                    }
                }
                var changes = try session.merge(merged, into: &task)
                changes += try session.write(local, to: &task, timestamp: existing == nil && merged.isEmpty ? plan.modified : nil)
                if overwrite && !changes.isEmpty { journal.append((existing ?? TaskItem(id: plan.id), existing == nil, changes)) }
                if existing == nil { summary.created += 1 } else if !changes.isEmpty { summary.updated += 1 } else if kept { summary.kept += 1 } else { summary.unchanged += 1 }
            }
            try Self.buildTaskIndexes(db, dropped)
            try UndoJournal.recordImport(journal, at: session.now, db)
            let newest = plans.lazy.flatMap { plan in plan.versions.values.map(\.timestamp) + (plan.modified.map { [HybridTimestamp(millis: $0)] } ?? []) }.max()
            summary.aheadMillis = newest.flatMap { HybridClock.skew(of: $0, now: session.now) }
            return summary
        }
    }

    /// Each of `records` validated and planned, in file order; the first
    /// that cannot be imported throws, named by its place (`item N: …`), as
    /// does an id given twice.
    static func plans(_ records: consuming [TaskJSON], now: Int64) throws -> [ImportPlan] {
        var plans: [ImportPlan] = []
        plans.reserveCapacity(records.count)
        var seen: Set<TaskID> = []
        seen.reserveCapacity(records.count)
        for (i, record) in records.enumerated() {
            do {
                let plan = try plan(record, now: now)
                guard seen.insert(plan.id).inserted else { throw TaskInputError("id \(plan.id) appears twice in the file") }
                plans.append(plan)
            } catch let error as TaskInputError {
                throw TaskInputError("item \(i + 1): \(error.message)")
            }
        }
        return plans
    }

    /// One record validated and planned; a record that cannot be imported
    /// throws a ``TaskInputError`` saying why (without its place in the
    /// file, which ``plans(_:now:)`` adds). A version beyond the sane future
    /// of `now` marks a damaged file.
    static func plan(_ r: TaskJSON, now: Int64) throws -> ImportPlan {
        func fail(_ message: String) -> TaskInputError { TaskInputError(message) }
        let title = try TaskText.title(r.title)
        let created: Int64?
        if let c = r.created {
            guard let ms = Timestamps.parse(c) else { throw fail("'created' must be an RFC 3339 time, not '\(Sanitizer.visible(c))'") }
            created = ms
        } else { created = nil }
        let modified = try r.modified.map { m -> Int64 in
            guard let ms = Timestamps.parse(m) else { throw fail("'modified' must be an RFC 3339 time, not '\(Sanitizer.visible(m))'") }
            return ms
        }
        let completedAt = try r.completedAt.map { m -> Int64 in
            guard let ms = Timestamps.parse(m) else { throw fail("'completed_at' must be an RFC 3339 time, not '\(Sanitizer.visible(m))'") }
            return ms
        }
        let id: TaskID
        if let raw = r.id {
            guard let parsed = TaskID(raw) else { throw fail("'id' must be a UUID, not '\(Sanitizer.visible(raw))'") }
            id = parsed
        } else if let ext = r.externalID {
            id = TaskID.stable(from: "external:\(r.source ?? "")\u{0}\(ext)")
        } else {
            id = TaskID.stable(from: "title:\(title)\u{0}\(created.map(String.init) ?? "")")
        }
        var fields: [(TaskField, FieldValue)] = []
        fields.append((.title, .string(title)))
        fields.append((.notes, .string(try TaskText.notes(r.notes ?? ""))))
        fields.append((.urgency, try r.urgency.map { .string(try Urgency.parse($0).rawValue) } ?? .null))
        fields.append((.importance, try r.importance.map { .int(Int64(try Importance.parse(String($0)).rawValue)) } ?? .null))
        fields.append((.duration, try r.duration.map { .int(Int64(try TaskDuration(minutes: $0).minutes)) } ?? .null))
        fields.append((.category, try r.category.map { .string(try TaskText.category($0)) } ?? .null))
        fields.append((.due, try r.due.map { .string(try DueDate.parse($0).description) } ?? .null))
        fields.append((.deleted, .bool(r.deleted ?? false)))
        if let created { fields.append((.created, .int(created))) }
        if let source = r.source { fields.append((.source, .string(try TaskText.label(source, name: "source")))) }
        if let ext = r.externalID { fields.append((.externalID, .string(try TaskText.label(ext, name: "external_id")))) }
        // A file from a build that kept `recur`, `occurrence` or `defer` as
        // opaque registers has them in `extra`: taken as the fields.
        let opaque = r.extra ?? [:]
        func kept(_ field: TaskField, _ value: String?) -> String? { value ?? opaque[field.rawValue]?.stringValue }
        let due = try r.due.map { try DueDate.parse($0) }
        fields.append((.recur, try kept(.recur, r.recur).map { text in
            let rule = try RecurrenceRule.parse(text)
            return .string((due.map { rule.anchored(at: $0) } ?? rule).rrule)
        } ?? .null))
        fields.append((.occurrence, try kept(.occurrence, r.occurrence).map { text in
            guard let occurrence = OccurrenceID(text) else {
                throw fail("'occurrence' must be <series id>#<number>, not '\(Sanitizer.visible(text))'")
            }
            return .string(occurrence.description)
        } ?? (kept(.recur, r.recur) != nil ? .string(OccurrenceID.first(of: id).description) : .null)))
        fields.append((.deferDate, try kept(.deferDate, r.deferDate).map { .string(try DueDate.parse($0).description) } ?? .null))
        for (name, value) in opaque.sorted(by: { $0.key < $1.key }) {
            if [TaskField.recur, .occurrence, .deferDate].contains(where: { $0.rawValue == name }) { continue }
            guard let field = TaskField(rawValue: name), !field.isKnown, field.tagName == nil, field.accepts(value) else {
                throw fail("'extra' holds '\(Sanitizer.visible(name))', which is not a field this build can keep")
            }
            fields.append((field, value))
        }
        let tags = try r.tags.map { try $0.map(TaskText.tag) }
        var versions: [TaskField: Version] = [:]
        for (name, text) in r.versions ?? [:] {
            guard let field = TaskField(rawValue: name), let version = Version(encoded: text) else {
                throw fail("'versions' holds '\(Sanitizer.visible(name))': '\(Sanitizer.visible(text))', which is not a field and a version")
            }
            if HybridClock.isBeyondSaneFuture(version.timestamp, now: now) {
                throw fail("the version of '\(field.rawValue)' lies beyond any sane future (\(version.encoded)); the file looks damaged")
            }
            versions[field] = version
        }
        if let key = r.nextUpKey, !OrderKey.isValid(key) {
            throw fail("'next_up_key' must be an order key as `export` writes it, not '\(Sanitizer.visible(key))'")
        }
        return ImportPlan(id: id, fields: fields, done: r.done ?? (completedAt != nil), completedAt: completedAt,
                          nextUp: r.nextUp ?? false, modified: modified, tags: tags, versions: versions, nextUpKey: r.nextUpKey)
    }
}

extension TaskStore {
    /// The page cache an index build after a bulk load runs with (KiB).
    static let indexBuildCacheKiB = 16_384

    /// Drops the task table's secondary indexes and returns the statements
    /// that make them again, read from the schema itself (one definition).
    /// A bulk load into an empty table builds them once at its end
    /// (``buildTaskIndexes(_:_:)``), in the same transaction, so no reader
    /// ever sees the table without them.
    static func dropTaskIndexes(_ db: Database) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task' AND sql IS NOT NULL")
        for row in rows { try db.execute(sql: "DROP INDEX \(row["name"] as String)") }
        return rows.map { $0["sql"] }
    }

    /// Builds again the indexes ``dropTaskIndexes(_:)`` dropped (`statements`,
    /// what it returned), letting SQLite's sorter use a second thread. Each
    /// index reads the whole table: when the store fits in
    /// ``indexBuildCacheKiB``, a page cache that size keeps it in memory
    /// between them, where a small one reads every page back from the WAL
    /// once per index; a larger store is read that way, so that the memory
    /// a bulk load takes stays bounded.
    static func buildTaskIndexes(_ db: Database, _ statements: [String]) throws {
        guard !statements.isEmpty else { return }
        let cache = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        let bytes = try (Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0) * (Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        if bytes <= indexBuildCacheKiB * 1024 { try db.execute(sql: "PRAGMA cache_size = -\(indexBuildCacheKiB)") }
        try db.execute(sql: "PRAGMA threads = 1")
        defer {
            try? db.execute(sql: "PRAGMA threads = 0")
            try? db.execute(sql: "PRAGMA cache_size = \(cache)")
        }
        for sql in statements { try db.execute(sql: sql) }
    }
}
