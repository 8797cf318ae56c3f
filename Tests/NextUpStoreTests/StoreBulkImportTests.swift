import Foundation
import GRDB
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// Imports of more than 1,000 records look up which ids exist with one query
/// instead of one per record; the outcome must be what record-by-record
/// lookups (imports of up to 1,000) give.
@Suite struct StoreBulkImportTests {
    let tmp = TemporaryFolder()

    static func records(count: Int, retitled: Set<Int> = []) -> [TaskJSON] {
        (0..<count).map { i in
            var t = TaskJSON(title: retitled.contains(i) ? "changed \(i)" : "task \(i) 🧪")
            t.id = String(format: "6301bbfc-a0c5-454e-8ff9-%012x", i)
            t.importance = i % 4 == 0 ? nil : i % 3 + 1
            t.done = i % 5 == 0
            if i % 5 == 0 { t.completedAt = "2025-04-01T10:00:00.000Z" }
            t.created = "2025-03-28T18:49:29.927Z"
            return t
        }
    }

    func tasks(_ store: TaskStore) throws -> [TaskJSON] {
        try store.allTasks().map { var t = TaskJSON($0); t.modified = nil; return t }.sorted { $0.id! < $1.id! }
    }

    @Test func bulkImportMatchesRecordByRecordImport() throws {
        let bulk = try TaskStore.open(StoreLocation(folder: tmp.path("bulk")))
        let small = try TaskStore.open(StoreLocation(folder: tmp.path("small")))
        let before = Self.records(count: 300)
        let after = Self.records(count: 1_500, retitled: Set(stride(from: 0, to: 300, by: 3)))
        for store in [bulk, small] { _ = try store.importTasks(before) }

        let summary = try bulk.importTasks(after)  // > 1,000: one id query
        var total = TaskStore.ImportSummary()
        for start in stride(from: 0, to: after.count, by: 500) {  // ≤ 1,000: a lookup per record
            let part = try small.importTasks(Array(after[start..<min(start + 500, after.count)]))
            total.created += part.created; total.updated += part.updated; total.unchanged += part.unchanged
        }
        #expect(summary == total)
        #expect(summary.created == 1_200 && summary.updated == 100 && summary.unchanged == 200)
        #expect(try tasks(bulk) == tasks(small))
        #expect(try bulk.outboxCount(after: 0) == small.outboxCount(after: 0))
        // Idempotent: the same bulk import again changes nothing.
        let again = try bulk.importTasks(after)
        #expect(again.unchanged == 1_500 && again.created == 0 && again.updated == 0)
    }

    /// The existing rows are read 500 at a time in row order: tasks known
    /// to the store spread over every batch (and across their edges) merge
    /// as record-by-record lookups merge them.
    @Test func existingRowsInEveryBatchMergeAsLookupsDo() throws {
        let bulk = try TaskStore.open(StoreLocation(folder: tmp.path("bulk")))
        let small = try TaskStore.open(StoreLocation(folder: tmp.path("small")))
        let all = Self.records(count: 1_600)
        let known = stride(from: 0, to: all.count, by: 3).map { all[$0] }
        for store in [bulk, small] {
            for start in stride(from: 0, to: known.count, by: 500) { _ = try store.importTasks(Array(known[start..<min(start + 500, known.count)])) }
        }
        let after = Self.records(count: 1_600, retitled: Set(stride(from: 0, to: 1_600, by: 7)))
        let summary = try bulk.importTasks(after)
        var total = TaskStore.ImportSummary()
        for start in stride(from: 0, to: after.count, by: 800) {
            let part = try small.importTasks(Array(after[start..<min(start + 800, after.count)]))
            total.created += part.created; total.updated += part.updated; total.unchanged += part.unchanged
        }
        #expect(summary == total)
        #expect(summary.created == 1_600 - known.count && summary.updated == (0..<1_600).filter { $0 % 21 == 0 }.count)
        #expect(try tasks(bulk) == tasks(small))
        #expect(try bulk.outboxCount(after: 0) == small.outboxCount(after: 0))
    }

    /// Many new rows: the indexes are dropped and built again in the same
    /// transaction; the store ends with every index, consistent, and lists
    /// as a row-by-row import leaves it.
    @Test func anImportThatRebuildsTheIndexesLeavesThemWhole() throws {
        let rebuilt = try TaskStore.open(StoreLocation(folder: tmp.path("rebuilt")))
        let plain = try TaskStore.open(StoreLocation(folder: tmp.path("plain")))
        let first = Array(Self.records(count: 1_500).prefix(200))
        _ = try rebuilt.importTasks(first)
        _ = try plain.importTasks(first)
        let all = Self.records(count: 1_500, retitled: [3, 7])
        let summary = try rebuilt.importTasks(all, overwrite: false, bulkInsertRows: 1_000)
        _ = try plain.importTasks(all, overwrite: false, bulkInsertRows: .max)
        #expect(summary.created == 1_300)
        func indexes(_ store: TaskStore) throws -> [String] {
            try store.database.read { try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task' AND sql IS NOT NULL ORDER BY name") }
        }
        #expect(try indexes(rebuilt) == indexes(plain))
        #expect(try indexes(rebuilt).count == 5)
        #expect(try rebuilt.database.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try tasks(rebuilt) == tasks(plain))
        #expect(try rebuilt.openCount() == plain.openCount())
        #expect(try rebuilt.nextUp().map(\.id) == plain.nextUp().map(\.id))
    }

    /// A first import (every record new, none with versions) keeps the
    /// narrow indexes up as it inserts and builds only the wide ones again:
    /// it leaves the indexes, the tasks and the lists a row-by-row import
    /// leaves.
    @Test func aFirstImportKeepsTheNarrowIndexesAndRebuildsTheWide() throws {
        let rebuilt = try TaskStore.open(StoreLocation(folder: tmp.path("rebuilt")))
        let plain = try TaskStore.open(StoreLocation(folder: tmp.path("plain")))
        var all = Self.records(count: 1_500)
        for i in stride(from: 0, to: all.count, by: 9) { all[i].nextUp = true }
        for i in stride(from: 1, to: all.count, by: 13) { all[i].source = "gh"; all[i].externalID = "\(i)" }
        #expect(try rebuilt.importTasks(all, overwrite: false, bulkInsertRows: 1_000).created == 1_500)
        _ = try plain.importTasks(all, overwrite: false, bulkInsertRows: .max)
        func indexes(_ store: TaskStore) throws -> [String] {
            try store.database.read { try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task' AND sql IS NOT NULL ORDER BY name") }
        }
        #expect(try indexes(rebuilt) == indexes(plain) && indexes(rebuilt).count == 5)
        #expect(try rebuilt.database.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try tasks(rebuilt) == tasks(plain))
        #expect(try rebuilt.nextUp().map(\.id) == plain.nextUp().map(\.id) && rebuilt.nextUp().count > 100)
        // What each way drops: every index, or only those wider than narrow.
        try rebuilt.database.write { db in
            func width(_ sql: String) throws -> Int {
                let name = String(sql.split(separator: " ")[2])
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_index_info(?)", arguments: [name])!
            }
            let everyIndex = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task' AND sql IS NOT NULL")
            let wide = try everyIndex.filter { try width($0) > TaskStore.narrowIndexColumns }
            #expect(!wide.isEmpty && wide.count < everyIndex.count)
            try db.inSavepoint {
                let dropped = try TaskStore.dropTaskIndexes(db, keepingNarrow: true)
                #expect(dropped == wide)
                return .rollback
            }
            try db.inSavepoint {
                let dropped = try TaskStore.dropTaskIndexes(db)
                #expect(dropped == everyIndex)
                return .rollback
            }
        }
    }

    /// A first import hands its rows' versions out in row order and then
    /// makes the rows on two threads: every row — its versions and
    /// `modified` included — and the outbox and clock it leaves are those
    /// of the same records written one by one in that order (two imports of
    /// 750, each below the size that takes the first-import path). The
    /// records mix every kind of time: none (the clock ticks), past, ahead
    /// within the sane future (the clock moves up to it) and beyond it.
    @Test func aFirstImportsRowsAreThoseOfWritingThemOneByOne() throws {
        let now: Int64 = 1_770_000_000_000
        let clock = FixedClock(millis: now)
        let together = try TaskStore.open(StoreLocation(folder: tmp.path("together")), clock: clock)
        let oneByOne = try TaskStore.open(StoreLocation(folder: tmp.path("oneByOne")), clock: clock)
        var all = Self.records(count: 1_500)  // ids ascending: row order is file order
        for i in all.indices {
            switch i % 4 {
            case 0: all[i].modified = Timestamps.rfc3339(now - 86_400_000 + Int64(i))
            case 1: all[i].modified = Timestamps.rfc3339(now + 3_600_000 + Int64(i) % 7)
            case 2: all[i].modified = i % 8 == 2 ? Timestamps.rfc3339(now + 400 * 86_400_000) : nil
            default: all[i].modified = nil
            }
            if i % 11 == 0 { all[i].nextUp = true }
        }
        #expect(try together.importTasks(all).created == 1_500)
        _ = try oneByOne.importTasks(Array(all[..<750]))
        _ = try oneByOne.importTasks(Array(all[750...]))
        func contents(_ store: TaskStore) throws -> [String] {
            try store.database.read { db in
                let replica = try TaskStore.replicaID(db).rawValue
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM task ORDER BY id").map(\.description)
                    + Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY seq").map(\.description)
                    + Row.fetchAll(db, sql: "SELECT * FROM meta WHERE key = 'clock'").map(\.description)
                return rows.map { $0.replacingOccurrences(of: replica, with: "<replica>") }
            }
        }
        let (a, b) = (try contents(together), try contents(oneByOne))
        #expect(a.count == 1_500 + 1_500 + 1)
        #expect(a == b)
    }

    /// The repeated id an import names is the first one a scan in file
    /// order meets, though it is found in the row order.
    @Test func theFirstRepeatIsTheOneAScanInFileOrderMeets() {
        var rng = SystemRandomNumberGenerator()
        let pool = (0..<40).map { _ in TaskID.make() }
        for _ in 0..<300 {
            let ids = (0..<Int.random(in: 0...30, using: &rng)).map { _ in pool[Int.random(in: 0..<pool.count, using: &rng)] }
            var seen: Set<TaskID> = []
            let scanned = ids.indices.first { !seen.insert(ids[$0]).inserted }
            #expect(TaskStore.firstRepeat(ids, order: TaskStore.rowOrder(ids)) == scanned, "\(ids)")
        }
    }

    /// The row order of many ids is the order of their keys, equal ids in
    /// file order — with repeated ids, and ids sharing their first 16 digits.
    @Test func theRowOrderOfManyIdsIsAStableSortByKey() {
        var rng = SystemRandomNumberGenerator()
        let pool = (0..<500).map { k -> TaskID in
            let id = TaskID.make()
            // One in five shares its first 16 digits with a few others.
            guard k % 5 == 0 else { return id }
            return TaskID("0123abcd-4567-89ef" + id.rawValue.dropFirst(18))!
        } + [TaskID("00000000-0000-0000-0000-000000000000")!, TaskID("ffffffff-ffff-ffff-ffff-ffffffffffff")!]
        for count in [0, 1, 64, 65, 700, 3_000] {
            let ids = (0..<count).map { _ in pool[Int.random(in: 0..<pool.count, using: &rng)] }
            let expected = ids.indices.sorted { a, b in
                TaskStore.rowKey(ids[a]) != TaskStore.rowKey(ids[b]) ? TaskStore.rowKey(ids[a]) < TaskStore.rowKey(ids[b]) : a < b
            }
            #expect(TaskStore.rowOrder(ids) == expected, "\(count) ids")
            var seen: Set<TaskID> = []
            #expect(TaskStore.firstRepeat(ids, order: TaskStore.rowOrder(ids)) == ids.indices.first { !seen.insert(ids[$0]).inserted })
        }
    }

    /// Large writes visit rows in the table's order (``TaskStore/rowPrecedes(_:_:)``):
    /// it is the byte order of the ids, which is SQLite's order of the keys.
    @Test func rowOrderIsTheTablesOrder() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("order")))
        let ids = (0..<300).map { _ in TaskID.make() } + [TaskID("00000000-0000-0000-0000-000000000000")!, TaskID("ffffffff-ffff-ffff-ffff-ffffffffffff")!]
        #expect(TaskStore.inRowOrder(ids).map(\.rawValue) == ids.map(\.rawValue).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for (a, b) in zip(ids, ids.shuffled()) {
            #expect((TaskStore.rowKey(a) < TaskStore.rowKey(b)) == a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8), "\(a) \(b)")
            #expect((TaskStore.rowKey(a) == TaskStore.rowKey(b)) == (a == b))
            #expect(TaskStore.rowPrecedes(a, b) == a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8))
        }
        _ = try store.importTasks(ids.map { var t = TaskJSON(title: "t"); t.id = $0.rawValue; return t })
        let stored = try store.database.read { try String.fetchAll($0, sql: "SELECT id FROM task ORDER BY id") }
        #expect(TaskStore.inRowOrder(ids).map(\.rawValue) == stored)
    }

    /// A session writes its outbox entries a hundred per statement and the
    /// rest when it finishes: every task's entry is there, one each, with
    /// sequence numbers 1, 2, 3 … in the order the tasks were written (row
    /// order), for a count that is not a multiple of a hundred; and a later
    /// single edit's entry follows them.
    @Test func outboxEntriesAreWrittenInOrderWhateverTheirCount() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("outbox")))
        let records = Self.records(count: 250)
        _ = try store.importTasks(records)
        let entries = try store.outbox(after: 0)
        #expect(entries.map(\.seq) == Array(1...250))
        let ids = TaskStore.inRowOrder(records.map { TaskID($0.id!)! })
        #expect(entries.map { $0.changes.first?.task } == ids)
        #expect(entries.allSatisfy { Set($0.changes.map(\.field)).contains(.title) })
        _ = try store.edit(ids[7], set: [(.title, .string("later"))])
        let last = try #require(try store.outbox(after: 250).first)
        #expect(last.seq == 251 && last.changes.map(\.task) == [ids[7]] && last.changes.map(\.field) == [.title])
        #expect(try store.outboxCount(after: 0) == 251)
    }
    /// A new task's row written from its fields (``TaskRow/NewRow``,
    /// what an import writes) is the row ``TaskRow/save(_:_:versions:)``
    /// writes for the task its edit makes: every column but the id.
    @Test func aNewTasksRowIsTheRowOfItsEdit() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("rows")))
        let me = ReplicaID.make()
        let edits: [[(TaskField, FieldValue)]] = [
            [(.title, .string("Tïtle ☕ İ")), (.notes, .string("n")), (.importance, .int(2)), (.due, .string("2026-12-01")),
             (.tag("Work"), .bool(true)), (TaskField(rawValue: "x_new")!, .string("v")), (.nextUp, .string("m")), (.done, .int(5)),
             (.created, .int(1_234)), (.source, .string("gh")), (.externalID, .string("7"))],
            [(.title, .string("t")), (.notes, .string("")), (.urgency, .null), (.deleted, .bool(false)), (.tag("a"), .bool(false))],
            [(.title, .string("x")), (.deleted, .bool(true)), (.duration, .int(30)), (.category, .string("Home")), (.urgency, .string("urgent"))],
        ]
        for fields in edits {
            let (a, b, c) = (TaskID.make(), TaskID.make(), TaskID.make())
            try store.database.write { db in
                var t = TaskItem(id: a)
                var clock = HybridClock(), same = clock
                _ = try LocalEdit.apply(fields, to: &t, clock: &clock, replica: me, now: 9_000, importedAt: 7_000)
                try TaskRow.save(t, db)
                let made = try LocalEdit.create(fields, clock: &same, replica: me, now: 9_000, importedAt: 7_000)
                let row = TaskRow.NewRow(id: b, fields: made.fields, version: try #require(made.version))
                #expect(row.versions == VersionsColumn.encode(t.versions))
                try row.insert(with: try TaskRow.insertStatement(db))
                // Several rows a statement: each the same row.
                let other = TaskRow.NewRow(id: c, fields: made.fields, version: try #require(made.version))
                try TaskRow.NewRow.insert([other, other], with: try TaskRow.insertStatement(db, rows: 2))
            }
            let rows = try store.database.read { db in
                try [a, b, c].map { id in try #require(try Row.fetchOne(db, sql: "SELECT * FROM task WHERE id = ?", arguments: [id.rawValue])) }
            }
            let columns = rows[0].columnNames.filter { $0 != "id" }
            #expect(columns.count == 17)
            for column in columns {
                #expect(rows[0][column] as DatabaseValue == rows[1][column] as DatabaseValue, "\(column)")
                #expect(rows[0][column] as DatabaseValue == rows[2][column] as DatabaseValue, "\(column)")
            }
        }
    }
}
