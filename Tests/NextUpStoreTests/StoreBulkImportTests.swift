import Foundation
import GRDB
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// An import of many records into a store that holds some of them: the
/// outcome is what importing them in parts gives.
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

        let summary = try bulk.importTasks(after)
        var total = TaskStore.ImportSummary()
        for start in stride(from: 0, to: after.count, by: 500) {
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

    /// Tasks known to the store, spread over the file, merge as they do
    /// when the file is imported in parts.
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

    /// Into an empty store the indexes are dropped and built again in the
    /// same transaction: the store ends with every index, consistent, and
    /// lists as a store imported into in parts (indexes kept up) does.
    @Test func anImportThatRebuildsTheIndexesLeavesThemWhole() throws {
        let rebuilt = try TaskStore.open(StoreLocation(folder: tmp.path("rebuilt")))
        let plain = try TaskStore.open(StoreLocation(folder: tmp.path("plain")))
        var all = Self.records(count: 1_500)
        for i in stride(from: 0, to: all.count, by: 9) { all[i].nextUp = true }
        for i in stride(from: 1, to: all.count, by: 13) { all[i].source = "gh"; all[i].externalID = "\(i)" }
        #expect(try rebuilt.importTasks(all).created == 1_500)
        _ = try plain.importTasks(Array(all.prefix(200)))
        _ = try plain.importTasks(all)
        func indexes(_ store: TaskStore) throws -> [String] {
            try store.database.read { try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task' AND sql IS NOT NULL ORDER BY name") }
        }
        #expect(try indexes(rebuilt) == indexes(plain))
        #expect(try indexes(rebuilt).count == 8)
        #expect(try rebuilt.database.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try tasks(rebuilt) == tasks(plain))
        #expect(try rebuilt.openCount() == plain.openCount())
        #expect(try rebuilt.nextUp().map(\.id) == plain.nextUp().map(\.id) && rebuilt.nextUp().count > 100)
        // What is dropped is every index, and what is built is what was dropped.
        try rebuilt.database.write { db in
            let everyIndex = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task' AND sql IS NOT NULL")
            try db.inSavepoint {
                let dropped = try TaskStore.dropTaskIndexes(db)
                #expect(dropped == everyIndex)
                return .rollback
            }
        }
    }

    /// An import's rows — versions and `modified` included — and the outbox
    /// and clock it leaves are those of the same records imported in two
    /// parts. The records mix every kind of time: none (the clock ticks),
    /// past, ahead within the sane future (the clock moves up to it) and
    /// beyond it.
    @Test func anImportsRowsAreThoseOfImportingItInParts() throws {
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
                // `written` numbers the transactions: two imports, two numbers.
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM task ORDER BY id")
                    .map { $0.description.replacingOccurrences(of: #" written:\d+\]"#, with: "]", options: .regularExpression) }
                    + Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY seq").map(\.description)
                    + Row.fetchAll(db, sql: "SELECT * FROM meta WHERE key = 'clock'").map(\.description)
                return rows.map { $0.replacingOccurrences(of: replica, with: "<replica>") }
            }
        }
        let (a, b) = (try contents(together), try contents(oneByOne))
        #expect(a.count == 1_500 + 1_500 + 1)
        #expect(a == b)
    }

    /// The row order of many ids is the byte order of their text, equal ids
    /// in file order — with repeated ids, and ids sharing their first 16 digits.
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
                ids[a] != ids[b] ? ids[a].rawValue.utf8.lexicographicallyPrecedes(ids[b].rawValue.utf8) : a < b
            }
            #expect(TaskStore.rowOrder(ids) == expected, "\(count) ids")
        }
    }

    /// Large writes visit rows in the table's order (``TaskStore/rowPrecedes(_:_:)``):
    /// it is the byte order of the ids, which is SQLite's order of the keys.
    @Test func rowOrderIsTheTablesOrder() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("order")))
        let ids = (0..<300).map { _ in TaskID.make() } + [TaskID("00000000-0000-0000-0000-000000000000")!, TaskID("ffffffff-ffff-ffff-ffff-ffffffffffff")!]
        #expect(TaskStore.inRowOrder(ids).map(\.rawValue) == ids.map(\.rawValue).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for (a, b) in zip(ids, ids.shuffled()) {
            #expect(TaskStore.rowPrecedes(a, b) == a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8))
        }
        _ = try store.importTasks(ids.map { var t = TaskJSON(title: "t"); t.id = $0.rawValue; return t })
        let stored = try store.database.read { try String.fetchAll($0, sql: "SELECT id FROM task ORDER BY id") }
        #expect(TaskStore.inRowOrder(ids).map(\.rawValue) == stored)
    }

    /// Every task's outbox entry is there, one each, with sequence numbers
    /// 1, 2, 3 … in the order the tasks were written (row order), whether
    /// the import's entries fill one insert of the session's outbox writer,
    /// several, or part of one; a later single edit's entry follows them.
    @Test(arguments: [1, 250, 601])
    func outboxEntriesAreWrittenInOrderWhateverTheirCount(count: Int) throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("outbox-\(count)")))
        let records = Self.records(count: count)
        _ = try store.importTasks(records)
        let entries = try store.outbox(after: 0)
        #expect(entries.map(\.seq) == Array(1...Int64(count)))
        let ids = TaskStore.inRowOrder(records.map { TaskID($0.id!)! })
        #expect(entries.map { $0.changes.first?.task } == ids)
        #expect(entries.allSatisfy { Set($0.changes.map(\.field)).contains(.title) })
        _ = try store.edit(ids[count / 2], set: [(.title, .string("later"))])
        let last = try #require(try store.outbox(after: Int64(count)).first)
        #expect(last.seq == Int64(count) + 1 && last.changes.map(\.task) == [ids[count / 2]] && last.changes.map(\.field) == [.title])
        #expect(try store.outboxCount(after: 0) == count + 1)
    }
}
