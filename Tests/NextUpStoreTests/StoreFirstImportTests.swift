import Foundation
import GRDB
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// A first import builds its store beside the store's place and moves it in
/// (``TaskStore/openImporting(_:_:overwrite:clock:)``); what it leaves must
/// be what opening a new store and importing into it leaves.
@Suite struct StoreFirstImportTests {
    let tmp = TemporaryFolder()
    let clock = FixedClock(millis: 1_780_000_000_000)

    /// Every row of every table and every schema object of the store in
    /// `folder`, and the pragmas a store is known by.
    func contents(_ folder: URL) throws -> [String] {
        let queue = try DatabaseQueue(path: StoreLocation(folder: folder).databaseURL.path)
        defer { try? queue.close() }
        return try queue.read { db in
            var out = try ["application_id", "user_version", "journal_mode", "integrity_check", "page_size"].map {
                "\($0) = \(try String.fetchOne(db, sql: "PRAGMA \($0)") ?? "nil")"
            }
            let objects = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
            out += objects.map { "\($0)" }
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                out += try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table): \($0)" }
            }
            return out
        }
    }

    func files(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// A first import of many new tasks (the path that drops and rebuilds
    /// the indexes and makes rows on a second thread), and a first import of
    /// an export (every record merged with its versions).
    @Test(arguments: [false, true]) func aFirstImportLeavesWhatOpenThenImportLeaves(withVersions: Bool) throws {
        var records = StoreBulkImportTests.records(count: 6_000)
        for i in stride(from: 0, to: records.count, by: 7) { records[i].nextUp = true }
        for i in stride(from: 3, to: records.count, by: 11) { records[i].tags = ["home", "urgent-\(i % 3)"] }
        if withVersions {
            let source = try TaskStore.open(StoreLocation(folder: tmp.path("source")), clock: clock)
            _ = try source.importTasks(records)
            records = try source.allTasks().map { TaskJSON($0, versions: true) }
            #expect(records.allSatisfy { $0.versions?.isEmpty == false })
        }
        let built = tmp.path("built"), opened = tmp.path("opened")
        let (store, summary) = try TaskStore.openImporting(StoreLocation(folder: built), records, clock: clock)
        // The store opened and imported into has the built one's replica id
        // (a versions column orders its replicas by id).
        try TaskStore.open(StoreLocation(folder: opened), clock: clock).closeBeforeExit()
        let setReplica = try DatabaseQueue(path: StoreLocation(folder: opened).databaseURL.path)
        try setReplica.write { db in
            try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'replica_id'", arguments: [try store.replicaID().rawValue])
        }
        try setReplica.close()
        let plain = try TaskStore.open(StoreLocation(folder: opened), clock: clock)
        let expected = try plain.importTasks(records)

        #expect(summary == expected && summary.created == 6_000)
        #expect(try store.allTasks().count == 6_000)
        let (a, b) = (try contents(built), try contents(opened))
        #expect(a.count == b.count && a.count > 12_000)
        // The first line that differs, if any (the whole lists are too long to show).
        let differing = zip(a, b).first { $0 != $1 }
        #expect(differing == nil)
        #expect(a.prefix(5) == ["application_id = \(StoreSchema.applicationID)", "user_version = \(StoreSchema.currentVersion)",
                                "journal_mode = wal", "integrity_check = ok", "page_size = \(StoreSchema.pageSize)"])
        // Nothing of the building left; the store private to its user.
        #expect(try files(built).allSatisfy { !$0.contains(TaskStore.buildingName) })
        var info = stat()
        #expect(stat(StoreLocation(folder: built).databaseURL.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    /// A store that exists (here holding a task) is imported into in place,
    /// as ``TaskStore/importTasks(_:overwrite:)`` does.
    @Test func anExistingStoreIsImportedIntoInPlace() throws {
        let location = StoreLocation(folder: tmp.path("store"))
        let first = try TaskStore.open(location, clock: clock)
        let kept = try first.add(TaskDraft(title: "already here"))
        first.closeBeforeExit()
        let records = StoreBulkImportTests.records(count: 1_200)
        let (store, summary) = try TaskStore.openImporting(location, records, clock: clock)
        #expect(summary.created == 1_200)
        #expect(try store.allTasks().count == 1_201)
        #expect(try store.allTasks().contains { $0.id == kept.id && $0.title == "already here" })
        #expect(try files(location.folder).allSatisfy { !$0.contains(TaskStore.buildingName) })
    }

    /// A bad file rejected by a first import leaves no store and nothing of
    /// the building: the next command finds no store, as before the import.
    @Test func aRejectedFirstImportLeavesNoStore() throws {
        let location = StoreLocation(folder: tmp.path("store"))
        var records = StoreBulkImportTests.records(count: 6_000)
        records[5_001].id = records[17].id
        #expect(throws: TaskInputError.self) { _ = try TaskStore.openImporting(location, records, clock: clock) }
        #expect(try files(location.folder) == ["nextup.lock"])
    }

    /// The records may be read while a new store is made: the reading runs
    /// once, whether the store is new or not, and a reading that fails is
    /// the error thrown, leaving no store.
    @Test func theRecordsAreReadOnceAndAFailedReadingLeavesNoStore() throws {
        struct Unreadable: Error {}
        let location = StoreLocation(folder: tmp.path("store"))
        #expect(throws: Unreadable.self) {
            _ = try TaskStore.openImporting(location, clock: clock, planned: { throw Unreadable() })
        }
        #expect(try files(location.folder) == ["nextup.lock"])
        var readings = 0
        let records = StoreBulkImportTests.records(count: 2_000)
        let (store, summary) = try TaskStore.openImporting(location, clock: clock) { readings += 1; return records }
        #expect(readings == 1 && summary.created == 2_000)
        store.closeBeforeExit()
        let (again, unchanged) = try TaskStore.openImporting(location, clock: clock) { readings += 1; return records }
        #expect(readings == 2 && unchanged.unchanged == 2_000)
        #expect(try again.allTasks().count == 2_000)
    }

    /// The files of an import that was killed while it built the store are
    /// thrown away by the next one, which builds the store whole.
    @Test func aKilledImportsLeftoversAreReplaced() throws {
        let folder = tmp.path("store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for suffix in ["", "-journal"] {
            try Data("half a store".utf8).write(to: folder.appendingPathComponent(TaskStore.buildingName + suffix))
        }
        let (store, summary) = try TaskStore.openImporting(StoreLocation(folder: folder), StoreBulkImportTests.records(count: 50), clock: clock)
        #expect(summary.created == 50)
        #expect(try store.allTasks().count == 50)
        #expect(try files(folder).allSatisfy { !$0.contains(TaskStore.buildingName) })
    }

    /// The store appears whole or not at all: another process's open, which
    /// takes the store's lock, waits while the lock is held and then finds
    /// the built store with every task.
    @Test func anOpenWhileTheStoreIsBuiltWaitsForTheWholeStore() throws {
        let location = StoreLocation(folder: tmp.path("store"))
        try FileManager.default.createDirectory(at: location.folder, withIntermediateDirectories: true)
        let lock = try StoreLock(folder: location.folder)
        try lock.lockExclusive()
        // A "process" that opens the store once it can (flock conflicts
        // between open file descriptions, in one process too).
        let counted = Counted()
        let other = Thread {
            counted.set(try? TaskStore.open(location, clock: FixedClock(millis: 1_780_000_000_000)).allTasks().count)
        }
        other.start()
        lock.unlock()
        let records = StoreBulkImportTests.records(count: 6_000)
        let (store, _) = try TaskStore.openImporting(location, records, clock: clock)
        #expect(eventually(within: 60) { counted.isSet })
        // Either the other open came first (an empty store, imported into
        // in place) or after (the whole built store); never part of it.
        #expect(counted.value == 0 || counted.value == 6_000)
        #expect(try store.allTasks().count == 6_000)
    }
}

private final class Counted: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int??
    func set(_ value: Int?) { lock.lock(); count = .some(value); lock.unlock() }
    var value: Int? { lock.lock(); defer { lock.unlock() }; return count ?? nil }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return count != nil }
}
