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
        // The title filter reads `title_fold` (v5), filled in for the rows
        // written before it: the store lists what Core's filter passes.
        let all = try store.allTasks()
        for query in ["FIXTURE", "日本語", "set", "nothing", "zzz"] {
            let filter = try ListFilter.parse(query)
            let listed = try store.listIDs(sort: .created, narrowing: TaskStore.ListNarrowing(filter), nowMillis: 0)
            #expect(Set(listed.nextUp + listed.backlog) == Set(all.filter { $0.isOpen && filter.matches($0) }.map(\.id)), "\(query)")
        }
        _ = try store.add(TaskDraft(title: "still writable"))
        #expect(try store.openCount() == 4)
    }

    @Test func locationFollowsOptionThenEnvironment() {
        #expect(StoreLocation.resolve(option: "/x", environment: ["NEXTUP_HOME": "/y"]).folder.path == "/x")
        #expect(StoreLocation.resolve(option: nil, environment: ["NEXTUP_HOME": "/y"]).folder.path == "/y")
        #expect(StoreLocation.resolve(option: nil, environment: ["XDG_DATA_HOME": "/d"]).folder.path == "/d/nextup")
        #expect(StoreLocation.resolve(option: nil, environment: ["HOME": "/h"]).folder.path == "/h/.local/share/nextup")
        #expect(StoreLocation.resolve(option: "~/s", environment: ["HOME": "/h"]).folder.path == "/h/s")
    }
}
