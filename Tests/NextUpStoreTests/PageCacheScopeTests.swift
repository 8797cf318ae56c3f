import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
import NextUpStore

/// A large import or merge raises SQLite's page cache for its own transaction
/// only: the shared connection is back to its previous cache afterwards.
@Suite struct PageCacheScopeTests {
    let tmp = TemporaryFolder()
    var location: StoreLocation { StoreLocation(folder: tmp.url) }

    @Test func aLargeImportLeavesTheConnectionsCacheAsItFoundIt() throws {
        let store = try TaskStore.open(location)
        let before = try store.pageCacheKiB()
        #expect(before < 262_144)
        let records = (0..<1_500).map { TaskJSON(title: "t\($0)", id: TaskID.make()) }
        _ = try store.importTasks(records)
        #expect(try store.taskCount() == 1_500)
        #expect(try store.pageCacheKiB() == before)
    }

    @Test func aLargeMergeLeavesTheConnectionsCacheAsItFoundIt() throws {
        let store = try TaskStore.open(location)
        let before = try store.pageCacheKiB()
        let other = ReplicaID.make()
        let version = Version(timestamp: HybridTimestamp(millis: 1_000), replica: other)
        let changes = (0..<1_500).map { FieldChange(task: TaskID.make(), field: .title, value: .string("r\($0)"), version: version) }
        let result = try store.mergeRemote(changes)
        #expect(result.applied == 1_500)
        #expect(try store.pageCacheKiB() == before)
    }
}
