import Foundation
import GRDB
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

@Suite struct StoreOpeningTests {
    @Test func aFreshStoreIsPrivateAndHasAReplicaID() throws {
        let tmp = TemporaryFolder()
        let location = StoreLocation(folder: tmp.path("a/b/store"))
        let store = try TaskStore.open(location)
        let folderMode = try FileManager.default.attributesOfItem(atPath: location.folder.path)[.posixPermissions] as! Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: location.databaseURL.path)[.posixPermissions] as! Int
        #expect(folderMode == 0o700)
        #expect(fileMode == 0o600)
        let replica = try store.replicaID()
        #expect(try TaskStore.open(location).replicaID() == replica)
        #expect(try store.schemaVersion() == StoreSchema.currentVersion)
    }

    /// A new store is made with ``StoreSchema/pageSize`` (SQLite's default is
    /// 4 KiB); a store made before keeps its own page size when migrated.
    @Test func aNewStoreHasTheSchemaPageSizeAndAnOldOneKeepsItsOwn() throws {
        let tmp = TemporaryFolder()
        func pageSize(_ store: TaskStore) throws -> Int { try store.database.read { try Int.fetchOne($0, sql: "PRAGMA page_size")! } }
        let fresh = try TaskStore.open(StoreLocation(folder: tmp.path("fresh")))
        #expect(try pageSize(fresh) == StoreSchema.pageSize)
        #expect(StoreSchema.pageSize != 4_096)

        let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let old = StoreLocation(folder: tmp.path("old"))
        try FileManager.default.createDirectory(at: old.folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("schema-v1.sqlite"), to: old.databaseURL)
        let migrated = try TaskStore.open(old)
        #expect(try migrated.schemaVersion() == StoreSchema.currentVersion)
        #expect(try pageSize(migrated) == 4_096)
        #expect(try migrated.allTasks().count == 5)
    }

    /// The tables and indexes of a store, as SQLite keeps their definitions.
    func schema(_ store: TaskStore) throws -> [String] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").map { "\($0)" }
        }
    }

    func expectRefusedAndUntouched(_ bytes: Data, _ check: (StoreError) -> Bool) throws {
        let tmp = TemporaryFolder()
        let location = StoreLocation(folder: tmp.url)
        try bytes.write(to: location.databaseURL)
        #expect { try TaskStore.open(location) } throws: { ($0 as? StoreError).map(check) ?? false }
        #expect(try Data(contentsOf: location.databaseURL) == bytes)
        #expect(!FileManager.default.fileExists(atPath: location.databaseURL.path + "-wal"))
    }

    @Test func randomBytesAreRefusedAndLeftUntouched() throws {
        var rng = SystemRandomNumberGenerator()
        let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &rng) })
        try expectRefusedAndUntouched(bytes) { if case .notANextupDatabase = $0 { return true } else { return false } }
    }

    @Test func aForeignSQLiteDatabaseIsRefusedAndLeftUntouched() throws {
        let tmp = TemporaryFolder()
        let other = tmp.path("other.sqlite")
        let queue = try DatabaseQueue(path: other.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes(x); INSERT INTO notes VALUES (1)") }
        try queue.close()
        try expectRefusedAndUntouched(try Data(contentsOf: other)) { if case .notANextupDatabase = $0 { return true } else { return false } }
    }

    @Test func aStoreFromANewerSchemaIsRefusedAndLeftUntouched() throws {
        let tmp = TemporaryFolder()
        let location = StoreLocation(folder: tmp.path("s"))
        _ = try TaskStore.open(location).add(TaskDraft(title: "x"))
        let queue = try DatabaseQueue(path: location.databaseURL.path)
        try queue.write { try $0.execute(sql: "PRAGMA user_version = 99") }
        try queue.close()
        try expectRefusedAndUntouched(try Data(contentsOf: location.databaseURL)) {
            if case .newerSchema(_, 99, _) = $0 { return true } else { return false }
        }
    }

    @Test func aPathThatIsAFileIsNotAStoreFolder() throws {
        let tmp = TemporaryFolder()
        try Data("x".utf8).write(to: tmp.path("file"))
        #expect(throws: StoreError.self) { try TaskStore.open(StoreLocation(folder: tmp.path("file"))) }
    }

    /// Every released schema has a fixture; the current code opens it and
    /// sees every task as that version's nextup exported it.
    @Test(arguments: 1...StoreSchema.currentVersion)
    func everySchemaFixtureOpensWithTheCurrentCode(version: Int) throws {
        let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let tmp = TemporaryFolder()
        let location = StoreLocation(folder: tmp.url)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("schema-v\(version).sqlite"), to: location.databaseURL)
        let expected = try JSONDecoder().decode([TaskJSON].self, from: Data(contentsOf: fixtures.appendingPathComponent("schema-v\(version).json")))
        let store = try TaskStore.open(location)
        #expect(try store.schemaVersion() == StoreSchema.currentVersion)
        let found = try store.allTasks().map { TaskJSON($0) }
        #expect(found.count == 5)
        #expect(Set(found.map(\.id)) == Set(expected.map(\.id)))
        for var e in expected {
            // Fixtures from before tags (v1, v2) have no `tags` key.
            if e.tags == nil { e.tags = [] }
            #expect(found.first { $0.id == e.id } == e)
        }
        // The title filter reads `title_fold` (v6), filled in for the rows
        // written before it: the store lists what Core's filter passes.
        let all = try store.allTasks()
        for query in ["FIXTURE", "日本語", "set", "nothing", "zzz"] {
            let filter = try ListFilter.parse(query)
            let listed = try store.listIDs(sort: .created, narrowing: TaskStore.ListNarrowing(filter), nowMillis: 0)
            #expect(Set(listed.nextUp + listed.backlog) == Set(all.filter { $0.isOpen && filter.matches($0) }.map(\.id)), "\(query)")
        }
        _ = try store.add(TaskDraft(title: "still writable"))
        #expect(try store.openCount() == 4)
        // Migrated, it has exactly the tables and indexes of a new store
        // (v7 and v8 made the lists' index again, `created` second, then first).
        let fresh = try TaskStore.open(StoreLocation(folder: tmp.path("fresh")))
        #expect(try schema(store) == schema(fresh))
    }

    /// Schema v10: a row an earlier build made for a change that came before
    /// its task's creation (created 0, no version for `created`: a blank
    /// "ghost" task) waits for its creation from then on — not listed, not
    /// counted, not exported — and is kept, with its changes.
    @Test func theV10MigrationHidesARowWhoseCreationNeverArrived() throws {
        let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let tmp = TemporaryFolder()
        let location = StoreLocation(folder: tmp.url)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("schema-v9.sqlite"), to: location.databaseURL)
        let ghost = "0ba5e0ff-0000-4000-8000-000000000001"
        let queue = try DatabaseQueue(path: location.databaseURL.path)
        try queue.write { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM task WHERE created > 0 LIMIT 1"))
            var versions = VersionsColumn.decode(row["versions"])
            #expect(versions.removeValue(forKey: .created) != nil)
            var copy = Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) })
            copy["id"] = ghost.databaseValue
            copy["created"] = 0.databaseValue
            copy["versions"] = VersionsColumn.encode(versions).databaseValue
            let names = Array(copy.keys)
            try db.execute(sql: "INSERT INTO task (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                           arguments: StatementArguments(names.map { copy[$0]! }))
        }
        try queue.close()
        let store = try TaskStore.open(location)
        #expect(try store.allTasks().count == 5)
        #expect(try !store.allTasks().contains { $0.id.rawValue == ghost })
        #expect(try store.tasksAwaitingCreation() == 1)
    }

    /// Schema v11: `title_fold` ignores accents as the filter does. A v10
    /// store whose row holds an accented title folded the v10 way (case
    /// only) is folded again, so `reunion` finds it; other rows stay.
    @Test func theV11MigrationFoldsAccentedTitlesAgain() throws {
        let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let tmp = TemporaryFolder()
        let location = StoreLocation(folder: tmp.url)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("schema-v10.sqlite"), to: location.databaseURL)
        let queue = try DatabaseQueue(path: location.databaseURL.path)
        let id = "3cf4e3a8-2b79-4431-addf-df50f0c7da90"
        try queue.write { db in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 10)
            try db.execute(sql: "UPDATE task SET title = 'Réunion équipe', title_fold = 'réunion équipe' WHERE id = ?", arguments: [id])
        }
        let before = try queue.read { try [String: String](uniqueKeysWithValues: Row.fetchAll($0, sql: "SELECT id, title_fold FROM task").map { ($0[0], $0[1]) }) }
        try queue.close()
        let store = try TaskStore.open(location)
        #expect(try store.schemaVersion() == StoreSchema.currentVersion)
        let after = try store.database.read { try [String: String](uniqueKeysWithValues: Row.fetchAll($0, sql: "SELECT id, title_fold FROM task").map { ($0[0], $0[1]) }) }
        #expect(after[id] == "reunion equipe")
        #expect(after.filter { $0.key != id } == before.filter { $0.key != id })
        let listed = try store.listIDs(sort: .score, narrowing: TaskStore.ListNarrowing(ListFilter(text: "reunion")), nowMillis: 0)
        #expect((listed.nextUp + listed.backlog).map(\.rawValue) == [id])
    }

    /// Schema v5 rewrites the versions column and the outbox (half the bytes
    /// per task): every version of the v4 fixture survives, and each outbox
    /// entry reads back as the v4 changes still standing in their rows, with
    /// the values v4 had recorded.
    @Test func theV5MigrationKeepsEveryVersionAndEveryStandingChange() throws {
        let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let tmp = TemporaryFolder()
        let location = StoreLocation(folder: tmp.url)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("schema-v4.sqlite"), to: location.databaseURL)
        var legacyVersions: [String: [TaskField: Version]] = [:]
        var legacyOutbox: [(seq: Int64, changes: [FieldChange])] = []
        do {
            let v4 = try DatabaseQueue(path: location.databaseURL.path)
            try v4.write { db in
                // An earlier write whose value was replaced since, as v4 recorded it.
                let earlier = FieldChange(task: TaskID("3cf4e3a8-2b79-4431-addf-df50f0c7da90")!, field: .title, value: .string("Fixture: first title"),
                                          version: Version(timestamp: HybridTimestamp(rawValue: 1), replica: ReplicaID.make()))
                try db.execute(sql: "INSERT INTO outbox(task_id, changes) VALUES (?, ?)",
                               arguments: [earlier.task.rawValue, ChangeListJSON.encode([earlier])])

                for row in try Row.fetchAll(db, sql: "SELECT id, versions FROM task") {
                    legacyVersions[row[0]] = VersionsColumn.decodeLegacy(row[1])
                }
                for row in try Row.fetchAll(db, sql: "SELECT seq, task_id, changes FROM outbox ORDER BY seq") {
                    legacyOutbox.append((row[0], ChangeListJSON.decode(task: row[1], changes: row[2])))
                }
            }
        }
        #expect(legacyVersions.count == 5 && legacyOutbox.count >= 5)
        let store = try TaskStore.open(location)
        #expect(try store.schemaVersion() == StoreSchema.currentVersion)
        let tasks = Dictionary(uniqueKeysWithValues: try store.allTasks().map { ($0.id.rawValue, $0) })
        for (id, versions) in legacyVersions { #expect(tasks[id]?.versions == versions, "\(id)") }
        let read = try store.outbox(after: 0)
        #expect(read.map(\.seq) == legacyOutbox.map(\.seq))
        var superseded = 0
        for (entry, legacy) in zip(read, legacyOutbox) {
            let standing = legacy.changes.filter { tasks[$0.task.rawValue]?.versions[$0.field] == $0.version }
            superseded += legacy.changes.count - standing.count
            #expect(entry.changes.sorted { $0.field < $1.field } == standing.sorted { $0.field < $1.field })
        }
        #expect(superseded == 1)  // the earlier title: the rule was exercised
        #expect(read.last?.changes == [])
    }

    @Test func locationFollowsOptionThenEnvironment() {
        #expect(StoreLocation.resolve(option: "/x", environment: ["NEXTUP_HOME": "/y"]).folder.path == "/x")
        #expect(StoreLocation.resolve(option: nil, environment: ["NEXTUP_HOME": "/y"]).folder.path == "/y")
        #expect(StoreLocation.resolve(option: nil, environment: ["XDG_DATA_HOME": "/d"]).folder.path == "/d/nextup")
        #expect(StoreLocation.resolve(option: nil, environment: ["HOME": "/h"]).folder.path == "/h/.local/share/nextup")
        #expect(StoreLocation.resolve(option: "~/s", environment: ["HOME": "/h"]).folder.path == "/h/s")
    }
}
