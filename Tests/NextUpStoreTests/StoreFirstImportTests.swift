import Foundation
import GRDB
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// ``TaskStore/openImporting(_:_:overwrite:clock:)``: the records are
/// validated before the store is opened, so a rejected file leaves no store
/// where there was none and changes nothing where there was one.
@Suite struct StoreFirstImportTests {
    let tmp = TemporaryFolder()
    let clock = FixedClock(millis: 1_780_000_000_000)

    func storeFiles(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(StoreLocation.databaseName) }
    }

    @Test func anImportIntoANewStoreLeavesAWholeStore() throws {
        let location = StoreLocation(folder: tmp.path("store"))
        var records = StoreBulkImportTests.records(count: 6_000)
        for i in stride(from: 0, to: records.count, by: 7) { records[i].nextUp = true }
        let (store, summary) = try TaskStore.openImporting(location, records, clock: clock)
        #expect(summary.created == 6_000)
        #expect(try store.allTasks().count == 6_000)
        let pragmas = try store.database.read { db in
            try ["journal_mode", "integrity_check", "page_size"].map { try String.fetchOne(db, sql: "PRAGMA \($0)") }
        }
        #expect(pragmas == ["wal", "ok", "\(StoreSchema.pageSize)"])
        var info = stat()
        #expect(stat(location.databaseURL.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    /// A store that exists (here holding a task) is imported into in place.
    @Test func anExistingStoreIsImportedIntoInPlace() throws {
        let location = StoreLocation(folder: tmp.path("store"))
        let kept = try TaskStore.open(location, clock: clock).add(TaskDraft(title: "already here"))
        let records = StoreBulkImportTests.records(count: 1_200)
        let (store, summary) = try TaskStore.openImporting(location, records, clock: clock)
        #expect(summary.created == 1_200)
        #expect(try store.allTasks().count == 1_201)
        #expect(try store.allTasks().contains { $0.id == kept.id && $0.title == "already here" })
    }

    /// The records are planned in slices, but the error is the first bad
    /// record's in file order, whichever slice holds it.
    @Test func theFirstBadRecordInFileOrderIsNamed() throws {
        let location = StoreLocation(folder: tmp.path("store"))
        var records = StoreBulkImportTests.records(count: 4_500)
        records[4_200].importance = 9
        records[2_600].due = "someday"
        records[3_100].id = records[2_999].id
        #expect(throws: TaskInputError("item 2601: due date must be YYYY-MM-DD, not 'someday'")) {
            _ = try TaskStore.openImporting(location, records, clock: clock)
        }
        records[2_600].due = nil
        #expect(throws: TaskInputError("item 3101: id \(records[2_999].id!) appears twice in the file")) {
            _ = try TaskStore.openImporting(location, records, clock: clock)
        }
        #expect(storeFiles(location.folder).isEmpty)
    }

    /// A bad file leaves no store: the next command finds none, as before the import.
    @Test func aRejectedImportLeavesNoStore() throws {
        let location = StoreLocation(folder: tmp.path("store"))
        var records = StoreBulkImportTests.records(count: 6_000)
        records[5_001].id = records[17].id
        #expect(throws: TaskInputError("item 5002: id \(records[17].id!) appears twice in the file")) {
            _ = try TaskStore.openImporting(location, records, clock: clock)
        }
        #expect(storeFiles(location.folder).isEmpty)
    }

    /// A bad file changes nothing in a store that exists.
    @Test func aRejectedImportChangesNothing() throws {
        let location = StoreLocation(folder: tmp.path("store"))
        let before = try {
            let first = try TaskStore.open(location, clock: clock)
            _ = try first.importTasks(StoreBulkImportTests.records(count: 100))
            return try first.allTasks()
        }()
        var records = StoreBulkImportTests.records(count: 300, retitled: [1, 2, 3])
        records[250].importance = 9
        #expect(throws: TaskInputError.self) { _ = try TaskStore.openImporting(location, records, clock: clock) }
        let store = try TaskStore.open(location, clock: clock)
        #expect(try store.allTasks() == before)
        #expect(try store.outboxCount(after: 0) == 100)
    }
}
