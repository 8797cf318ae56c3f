import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpSync

/// Replicas running different versions lose nothing: a field this build does
/// not know (written by a newer nextup) is an opaque register — kept in the
/// store with its version, carried by export and import, and passed on.
@Suite struct OpaqueFieldTests {
    static let newer = TaskField(rawValue: "x-energy")!

    @Test func anUnknownFieldFromAConflictCopyIsStoredExportedAndRepublished() throws {
        let peer = try TemporaryFolder("peer")
        let a = try StoreReplica(peer: peer.url), c = try StoreReplica(peer: peer.url)
        _ = try a.store.add(TaskDraft(title: "seed"))
        try a.engine.syncOnce()
        let aID = try a.store.replicaID()

        // A newer nextup wrote a field we do not know; its line reaches us in a
        // conflict copy of A's log.
        let task = TaskID.make()
        let version = Version(timestamp: HybridTimestamp(millis: 1_763_000_000_000), replica: aID)
        var copy = try Data(contentsOf: peer.url.appendingPathComponent(LogFormat.fileName(for: aID)))
        copy += Data(LogRecord(task: task, changes: [
            FieldChange(task: task, field: .title, value: .string("from a newer nextup"), version: version),
            FieldChange(task: task, field: .created, value: .int(1_763_000_000_000), version: version),
            FieldChange(task: task, field: Self.newer, value: .string("high"), version: version),
        ]).encodedLine(owner: aID))
        let conflict = "nextup-\(aID).sync-conflict-20261123-080000-NEWER01.log"
        try copy.write(to: peer.url.appendingPathComponent(conflict))

        let report = try c.engine.syncOnce()
        #expect(report.conflictCopiesMerged == [conflict])
        // Kept in the store, with its version.
        let stored = try #require(try c.store.task(task))
        #expect(stored.value(of: Self.newer) == .string("high"))
        #expect(stored.versions[Self.newer] == version)

        // Re-published in C's own log with its original version, so a replica
        // that never saw the copy gets it too.
        let cLog = try Data(contentsOf: peer.url.appendingPathComponent(LogFormat.fileName(for: try c.store.replicaID())))
        let scan = LogDecoder(file: "c", owner: try c.store.replicaID()).scan(Array(cLog), at: 0)
        #expect(scan.records.flatMap(\.changes).contains { $0.field == Self.newer && $0.version == version && $0.value == .string("high") })
        let late = try StoreReplica(peer: peer.url)
        try late.engine.syncOnce()
        #expect(try late.store.task(task)?.value(of: Self.newer) == .string("high"))
        #expect(try late.store.task(task)?.versions[Self.newer] == version)

        // Export and import keep it.
        let exported = try #require(TaskJSON(stored).extra)
        #expect(exported == ["x-energy": .string("high")])
        let freshFolder = try TemporaryFolder("fresh")
        let fresh = try TaskStore.open(StoreLocation(folder: freshFolder.url))
        _ = try fresh.importTasks([TaskJSON(stored)])
        #expect(try fresh.task(task)?.value(of: Self.newer) == .string("high"))

        // A later local edit of another field leaves it alone.
        _ = try c.store.edit(task, set: [(.importance, .int(2))])
        #expect(try c.store.task(task)?.value(of: Self.newer) == .string("high"))
        #expect(try c.store.task(task)?.versions[Self.newer] == version)
    }
}
