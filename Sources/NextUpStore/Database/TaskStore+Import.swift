import Foundation
import GRDB
import NextUpCore

extension TaskStore {
    /// What an import did.
    public struct ImportSummary: Sendable, Equatable {
        public var created = 0
        public var updated = 0
        public var unchanged = 0
        /// Tasks where at least one field was kept because the store's value
        /// is newer than the file's.
        public var kept = 0
        /// With `overwrite`: each field replaced although the store's value
        /// was newer (task, field, the value it had).
        public var overwritten: [(task: TaskID, field: TaskField, was: FieldValue)] = []

        public static func == (a: ImportSummary, b: ImportSummary) -> Bool {
            a.created == b.created && a.updated == b.updated && a.unchanged == b.unchanged && a.kept == b.kept
                && a.overwritten.map { "\($0.task)\($0.field)\($0.was)" } == b.overwritten.map { "\($0.task)\($0.field)\($0.was)" }
        }
    }

    /// One validated import record.
    struct ImportPlan {
        let id: TaskID
        private(set) var fields: [(TaskField, FieldValue)]
        let done: Bool
        let completedAt: Int64?
        let nextUp: Bool
        let modified: Int64?
        /// The tags the record names; nil leaves the task's tags as they are.
        let tags: [String]?
        /// The record's field versions (from an export), by field.
        let versions: [TaskField: Version]

        /// The values the record asks of its task, `existing` (nil: a task
        /// to create): its fields, then done, Next Up (`nextUpKey`, the place
        /// kept for it when it joins) and its tag set where they differ from
        /// the task's, and for a new task its creation time (`now` when the
        /// record has none).
        func fields(over existing: TaskItem?, nextUpKey: String?, now: Int64) -> [(TaskField, FieldValue)] {
            var fields = self.fields
            ask(&fields, over: existing, nextUpKey: nextUpKey, now: now)
            return fields
        }

        /// ``fields(over:nextUpKey:now:)``, the plan's own fields taken out
        /// and added to where they are (no copy of them): the plan keeps none.
        mutating func takeFields(over existing: TaskItem?, nextUpKey: String?, now: Int64) -> [(TaskField, FieldValue)] {
            var fields: [(TaskField, FieldValue)] = []
            swap(&fields, &self.fields)
            ask(&fields, over: existing, nextUpKey: nextUpKey, now: now)
            return fields
        }

        /// Adds to the record's `fields` what it asks beyond them (see ``fields(over:nextUpKey:now:)``).
        private func ask(_ fields: inout [(TaskField, FieldValue)], over existing: TaskItem?, nextUpKey: String?, now: Int64) {
            if done != (existing?.isDone ?? false) {
                fields.append((.done, done ? .int(completedAt ?? now) : .null))
            }
            if nextUp != (existing?.isNextUp ?? false) {
                fields.append((.nextUp, nextUp ? .string(nextUpKey!) : .null))
            }
            if let tags {
                // The record's tag set: its tags present, any other the task has removed.
                let wanted = Set(tags.map(TextMatch.fold))
                for tag in tags { fields.append((.tag(tag), .bool(true))) }
                for tag in existing?.tags ?? [] where !wanted.contains(TextMatch.fold(tag)) { fields.append((.tag(tag), .bool(false))) }
            }
            // By index, comparing fields only: a `contains(where:)` copied
            // each pair out, its value's text retained and released.
            if existing == nil, !fields.indices.contains(where: { fields[$0].0 == .created }) { fields.append((.created, .int(now))) }
        }

        /// When the file's value of `field` was written: its version, else the
        /// record's `modified`; nil when the record says neither.
        func fileTime(_ field: TaskField) -> HybridTimestamp? {
            versions[field]?.timestamp ?? modified.map { HybridTimestamp(millis: $0) }
        }
    }

    /// Imports task objects (DESIGN.md §4), matching by `id`.
    ///
    /// Contract: every record is validated before anything is written; one bad
    /// record rejects the whole import with a message naming it, and the store
    /// is untouched. It merges like a sync: a field of a known task takes the
    /// file's value only when the file's is newer than the store's version of
    /// that field (the file's per-field `versions` from an export, else the
    /// record's `modified`; a record with neither is taken as newer), so an
    /// older file never reverts a newer edit — unless `overwrite` is asked for,
    /// and then every field replaced over a newer value is listed. A new task
    /// keeps its id, `created` (the import time when the record has none),
    /// `completed_at` and `modified`. Importing the same records again changes
    /// nothing. A record without an id gets a stable one derived from its
    /// `source`/`external_id`, else its title and creation time — never a
    /// random one. What it writes is a local edit, published like any other.
    ///
    /// The records are consumed: they are freed once planned, before the
    /// store is written (at 100,000 tasks, tens of MB of peak memory).
    ///
    /// Steps: the records are planned (validated, in two halves at once when
    /// many); their ids sorted into the table's row order, where a repeated
    /// id is found; in one transaction, many new rows drop the indexes first
    /// and build them again last; each record is written in row order — a
    /// new task from a file without versions as one edit creating it
    /// (``WriteSession/create(_:fields:timestamp:)``), anything else merged
    /// with what the store holds. When every record is such a new task (a
    /// first import), the rows' versions are handed out in row order, and
    /// then the rows are made on two threads while this one inserts them in
    /// that order (``Handoff``): the same rows, the same clock.
    public func importTasks(_ records: consuming [TaskJSON], overwrite: Bool = false) throws -> ImportSummary {
        try importTasks(records, overwrite: overwrite, bulkInsertRows: Self.bulkInsertRows)
    }

    /// ``importTasks(_:overwrite:)`` of records planned as they were read
    /// (``planned(_:)``, in file order): the same import, the same result.
    public func importTasks(planned: consuming [PlannedRecord], overwrite: Bool = false) throws -> ImportSummary {
        try importTasks(planned: planned, overwrite: overwrite, bulkInsertRows: Self.bulkInsertRows)
    }

    func importTasks(_ records: consuming [TaskJSON], overwrite: Bool, bulkInsertRows: Int,
                     rowsWritten: () -> Void = {}) throws -> ImportSummary {
        try importTasks(planned: Self.planned(records), overwrite: overwrite, bulkInsertRows: bulkInsertRows, rowsWritten: rowsWritten)
    }

    /// `rowsWritten` is called once every row is written, before the indexes
    /// are built (a store being built starts writing its file to disk then).
    func importTasks(planned: consuming [PlannedRecord], overwrite: Bool, bulkInsertRows: Int,
                     rowsWritten: () -> Void = {}) throws -> ImportSummary {
        var (plans, ids, marks) = try Self.plans(&planned)
        planned = []
        // Rows are written in id order (see below); in it, a repeated id is
        // next to its first.
        let order = Self.rowOrder(ids)
        if let i = Self.firstRepeat(ids, order: order) {
            throw TaskInputError("item \(i + 1): id \(ids[i]) appears twice in the file")
        }
        // A large import keeps a large page cache for its transaction only.
        return try writeSession(records: plans.count) { session in
            var summary = ImportSummary()
            var bottom: String?
            // A large import asks once which of its ids exist instead of
            // looking each one up (most are new in a first import).
            let present: Set<String>? = plans.count > 1_000
                ? try Set(String.fetchAll(session.db, sql: "SELECT id FROM task"))
                : nil
            // Many new tasks: the task table's secondary indexes are dropped
            // and built again once at the end (a sort), instead of taking
            // every row at a random place — in the same transaction, so no
            // reader ever sees the table without them.
            let newRows = present.map { p in p.isEmpty ? ids.count : ids.reduce(0) { $0 + (p.contains($1.rawValue) ? 0 : 1) } } ?? 0
            // Every record is a new task and none carries versions (a first
            // import): its rows are made on another thread (below).
            let firstImport = newRows == ids.count && present != nil && !marks.versioned
            // Only when the new rows are at least as many as the table held
            // (building an index again reads every row, old ones too). A
            // first import keeps the narrow indexes up as it inserts: its
            // inserting thread would otherwise wait for rows (10,000:
            // 115 → 109 ms; 100,000: 1.12 → 1.02 s).
            let dropped = newRows >= bulkInsertRows && newRows >= present?.count ?? 0
                ? try Self.dropTaskIndexes(session.db, keepingNarrow: firstImport) : []
            if !dropped.isEmpty {
                // Without the indexes, rows written in id order only append
                // to the table and the outbox: SQLite's default 2 MB cache
                // does (its dirty pages go to the WAL as it fills), and the
                // indexes are then sorted in small runs. With the large
                // cache every page stayed in memory until the commit (an
                // import of 100,000: 54 MB more memory, and slower).
                try session.db.execute(sql: "PRAGMA cache_size = -2000")
            }
            // Next Up keys follow the file's order; rows are written in id
            // order, so that new rows are appended to the table's B-tree
            // instead of landing all over it (a random page per task, each
            // held in the page cache until the commit).
            var nextUpKeys: [Int: String] = [:]
            for index in marks.nextUp {
                bottom = OrderKey.between(try bottom ?? Self.lastNextUpKey(session.db), nil)
                nextUpKeys[index] = bottom
            }
            if firstImport {
                // Each row — its edit, its texts — is made on another thread
                // while this one inserts the rows before it, and on this one
                // while the next is not ready (``Handoff``). A row's version
                // is the only thing one depends on the rows before it for:
                // they are handed out first, in row order. Every plan has
                // a title, which a new task lacks, so every row takes one.
                var clock = session.clock
                let (replica, now) = (session.replica, session.now)
                let versions = plans.withUnsafeBufferPointer { plans in
                    order.map { index in
                        LocalEdit.creationVersion(clock: &clock, replica: replica, now: now, importedAt: plans[index].unsafelyUnwrapped.modified)
                    }
                }
                // Inserted several rows a statement.
                var batch: [TaskRow.NewRow] = []
                batch.reserveCapacity(WriteSession.rowsPerStatement)
                try plans.withUnsafeMutableBufferPointer { plans in
                    try Handoff.run(count: order.count, make: { position -> TaskRow.NewRow? in
                        let index = order[position]
                        var plan = plans[index].take()!
                        return try WriteSession.newRow(plan.id, fields: plan.takeFields(over: nil, nextUpKey: nextUpKeys[index], now: now),
                                                       version: versions[position])
                    }, use: { row in
                        guard let row else { return }
                        batch.append(row)
                        if batch.count == WriteSession.rowsPerStatement {
                            try session.insert(batch)
                            batch.removeAll(keepingCapacity: true)
                        }
                    })
                }
                try session.insert(batch)
                session.advance(to: clock)
                summary.created = order.count
                rowsWritten()
                try Self.buildTaskIndexes(session.db, dropped)
                return summary
            }
            // With the ids known, the existing rows are read 500 at a time
            // (one statement each, in row order), not one query per task.
            var held: [TaskID: TaskItem] = [:]
            for (position, index) in order.enumerated() {
                if let present, !present.isEmpty, position % Self.rowsReadAtOnce == 0 {
                    // An array: a lazy filter was walked again each time the
                    // read took its next 500.
                    let next = order[position..<min(position + Self.rowsReadAtOnce, order.count)].map { ids[$0] }.filter { present.contains($0.rawValue) }
                    held = Dictionary(uniqueKeysWithValues: try TaskRow.fetchAll(session.db, ids: next).lazy.map { ($0.id, $0) })
                }
                // Taken out (each plan is written once): its memory goes back
                // to the allocator for SQLite's pages as the import goes on.
                let plan = plans[index].take()!
                let existing = present == nil ? try TaskRow.fetchOne(session.db, id: plan.id) : held.removeValue(forKey: plan.id)
                var task = existing ?? TaskItem(id: plan.id)
                let fields = plan.fields(over: existing, nextUpKey: nextUpKeys[index], now: session.now)
                if existing == nil, plan.versions.isEmpty {
                    // A new task and a file without versions: one local edit
                    // creating it, written without making the task.
                    _ = try session.create(plan.id, fields: fields, timestamp: plan.modified)
                    summary.created += 1
                    continue
                }
                var kept = false
                // Merge like a sync: the store's newer values stay. A value the
                // file has a version for is merged with that version (lossless);
                // any other is written as a local edit.
                var merged: [FieldChange] = []
                var local: [(TaskField, FieldValue)] = []
                for (field, value) in fields where task.value(of: field) != value {
                    let version = plan.versions[field]
                    if let version, HybridClock.isBeyondSaneFuture(version.timestamp, now: session.now) {
                        throw TaskInputError("item \(index + 1): the version of '\(field.rawValue)' lies beyond any sane future (\(version.encoded)); the file looks damaged")
                    }
                    if let held = task.versions[field], let fileTime = plan.fileTime(field), fileTime <= held.timestamp {
                        guard overwrite else { kept = true; continue }
                        summary.overwritten.append((task.id, field, task.value(of: field)))
                        local.append((field, value))
                    } else if let version, field != .nextUp {
                        merged.append(FieldChange(task: task.id, field: field, value: value, version: version))
                    } else {
                        local.append((field, value))
                    }
                }
                var changes = try session.merge(merged, into: &task)
                changes += try session.write(local, to: &task, timestamp: existing == nil && merged.isEmpty ? plan.modified : nil)
                if kept { summary.kept += 1 }
                if existing == nil { summary.created += 1 } else if !changes.isEmpty { summary.updated += 1 } else if !kept { summary.unchanged += 1 }
            }
            rowsWritten()
            try Self.buildTaskIndexes(session.db, dropped)
            return summary
        }
    }

    /// One import record validated and planned (``planned(_:)``), or the
    /// reason it cannot be imported. A reader plans each record as soon as
    /// it has read it, on the thread that read it: the record's memory is
    /// freed while it is fresh, and reused for the next, instead of a whole
    /// file's records first being made and then planned in a pass of their own.
    public struct PlannedRecord: Sendable {
        fileprivate var outcome: Result<ImportPlan, any Error>

        /// What an array of planned records leaves behind when one is moved
        /// out (``Swift/Array/append(moving:leaving:)``): shared, nothing to free.
        public static let placeholder = PlannedRecord(outcome: .failure(TaskInputError("no record")))
    }

    /// `record` validated and planned for an import; a record that cannot be
    /// imported keeps the reason, which the import throws naming the
    /// record's place in the file (`item N: …`).
    public static func planned(_ record: consuming TaskJSON) -> PlannedRecord {
        PlannedRecord(outcome: Result { try plan(record) })
    }

    /// Each of `records` planned (``planned(_:)``), each record freed as it
    /// is planned, in two halves at once when many (``SideBySide``).
    static func planned(_ records: consuming [TaskJSON]) -> [PlannedRecord] {
        var records = records
        return records.withUnsafeMutableBufferPointer { all in
            func planned(_ range: Range<Int>) -> [PlannedRecord] {
                var out: [PlannedRecord] = []
                out.reserveCapacity(range.count)
                for i in range { out.append(Self.planned(exchange(&all[i], with: TaskJSON(title: "")))) }
                return out
            }
            guard all.count >= plannedInHalvesFrom else { return planned(0..<all.count) }
            let middle = all.count / 2
            // Neither half throws.
            var (first, second) = try! SideBySide.run({ planned(0..<middle) }, { planned(middle..<all.count) })
            first.append(moving: &second, leaving: .placeholder)
            return first
        }
    }

    /// What the import asks of its plans as a whole, noted as each is taken
    /// (read from the plans afterwards, each plan was copied out, twice).
    struct PlanMarks {
        /// The positions of the records that ask for Next Up, in file order.
        var nextUp: [Int] = []
        /// Whether any record carries versions.
        var versioned = false
    }

    /// The plans of `planned` (each moved out), each plan's id beside it
    /// (reading it from a plan copied the plan out) and the marks; the
    /// first record in file order that cannot be imported throws its
    /// reason, naming its place (`item N: …`).
    static func plans(_ planned: inout [PlannedRecord]) throws -> (plans: [ImportPlan?], ids: [TaskID], marks: PlanMarks) {
        var plans: [ImportPlan?] = []
        plans.reserveCapacity(planned.count)
        var ids: [TaskID] = []
        ids.reserveCapacity(planned.count)
        var marks = PlanMarks()
        for i in planned.indices {
            switch exchange(&planned[i], with: .placeholder).outcome {
            case .success(let plan):
                ids.append(plan.id)
                if plan.nextUp { marks.nextUp.append(i) }
                if !plan.versions.isEmpty { marks.versioned = true }
                plans.append(plan)
            case .failure(let error as TaskInputError):
                throw TaskInputError("item \(i + 1): \(error.message)")
            case .failure(let error):
                throw error
            }
        }
        return (plans, ids, marks)
    }

    /// From this many records on, they are planned in two halves at once.
    static let plannedInHalvesFrom = 1_000

    /// One record validated and planned; a record that cannot be imported
    /// throws a ``TaskInputError`` saying why (without its place in the
    /// file, which ``plans(_:)`` adds).
    static func plan(_ r: TaskJSON) throws -> ImportPlan {
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
        // Sized exactly: the plans of a whole file are held until written
        // (grown by doubling, a plan of 11 fields had room for 16 — at
        // 100,000 tasks, 20 MB of peak memory).
        var fields: [(TaskField, FieldValue)] = []
        fields.reserveCapacity(8 + (created == nil ? 0 : 1) + (r.source == nil ? 0 : 1) + (r.externalID == nil ? 0 : 1) + (r.extra?.count ?? 0))
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
        for (name, value) in (r.extra ?? [:]).sorted(by: { $0.key < $1.key }) {
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
            versions[field] = version
        }
        return ImportPlan(id: id, fields: fields, done: r.done ?? (completedAt != nil), completedAt: completedAt,
                          nextUp: r.nextUp ?? false, modified: modified, tags: tags, versions: versions)
    }
}

extension TaskStore {
    /// From this many new rows on — and no fewer than the table holds — an
    /// import drops the task table's secondary indexes and builds them again
    /// at the end (10,000 into an empty store: 195 → 183 ms).
    static let bulkInsertRows = 5_000

    /// How many existing rows a large import reads with one statement.
    static let rowsReadAtOnce = 500

    /// Drops the task table's secondary indexes — with `keepingNarrow`, only
    /// those wider than ``narrowIndexColumns`` — and returns the statements
    /// that make them again, read from the schema itself (one definition).
    ///
    /// A narrow index costs its writer little per row; a wide one (the
    /// lists' covering index) costs more kept up row by row than sorted once.
    /// A writer whose thread waits between rows (a first import, for rows
    /// made on another thread) keeps the narrow ones up in that time; one
    /// that never waits (the first sync: keeping them made 100,000 tasks
    /// 1.40 → 1.60 s) drops them all.
    static func dropTaskIndexes(_ db: Database, keepingNarrow: Bool = false) throws -> [String] {
        var rows = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task' AND sql IS NOT NULL")
        if keepingNarrow {
            rows = try rows.filter { try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_index_info(?)", arguments: [$0["name"] as String])! > narrowIndexColumns }
        }
        for row in rows { try db.execute(sql: "DROP INDEX \(row["name"] as String)") }
        return rows.map { $0["sql"] }
    }

    /// The most columns of an index a first import keeps up as it inserts.
    static let narrowIndexColumns = 2

    /// Builds again the indexes ``dropTaskIndexes(_:keepingNarrow:)`` dropped (`statements`,
    /// what it returned), with one more thread for SQLite's sorter while it
    /// does: building the five of 100,000 rows, 0.30 → 0.24 s.
    static func buildTaskIndexes(_ db: Database, _ statements: [String]) throws {
        guard !statements.isEmpty else { return }
        try db.execute(sql: "PRAGMA threads = 1")
        defer { try? db.execute(sql: "PRAGMA threads = 0") }
        for sql in statements { try db.execute(sql: sql) }
    }
}
