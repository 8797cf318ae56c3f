import Foundation
import GRDB
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// A store that took in a version beyond the sane future (DESIGN.md §2)
/// before such versions were refused is repaired when it opens.
@Suite struct FarFutureRepairTests {
    let poisoned = HybridTimestamp(rawValue: 0x7fff_0000_0000_0000)

    @Test func aPoisonedStoreIsRepairedWhenItOpensAndWritesWinAgain() throws {
        let tmp = TemporaryFolder()
        let location = StoreLocation(folder: tmp.url)
        let stranger = ReplicaID.make()
        let id: TaskID
        let mine: ReplicaID
        do {
            let store = try TaskStore.open(location)
            mine = try store.replicaID()
            id = try store.add(TaskDraft(title: "Shared")).id
            try store.pruneOutbox(through: .max)
            // As an older nextup did: merged the far-future change, saved the clock…
            _ = try store.mergeRemote([FieldChange(task: id, field: .title, value: .string("poisoned"),
                                                   version: Version(timestamp: poisoned, replica: stranger))],
                                      state: ["sync.cursor.nextup-x.log": "{}", "sync.own-log": "{}"])
            try store.database.write { db in
                try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'clock'", arguments: [String(poisoned.rawValue)])
            }
            // …then stamped a local edit with that clock (this must not trap).
            #expect(try store.edit(id, set: [(.notes, .string("written with the poisoned clock"))]).changes.count == 1)
        }
        let now = SystemClock().nowMillis()
        let store = try TaskStore.open(location)
        let task = try #require(try store.task(id))
        // The stranger's register keeps its value at the lowest version.
        #expect(task.title == "poisoned")
        #expect(task.versions[.title] == Version(timestamp: .zero, replica: stranger))
        // This replica's own edit is re-stamped sanely and pending again.
        #expect(task.notes == "written with the poisoned clock")
        let notes = try #require(task.versions[.notes])
        #expect(notes.replica == mine && !HybridClock.isBeyondSaneFuture(notes.timestamp, now: now))
        let pending = try store.outbox(after: 0).flatMap(\.changes)
        #expect(pending.map(\.field) == [.notes] && pending.first?.version == notes)
        // Cursors and the own-log state are forgotten: the next sync reads everything.
        #expect(try store.syncState().isEmpty)
        // And an edit made now wins over what the logs may still carry.
        let renamed = try #require(try store.edit(id, set: [(.title, .string("Renamed"))]).changes.first)
        #expect(!HybridClock.isBeyondSaneFuture(renamed.version.timestamp, now: now))
        #expect(renamed.version > Version(timestamp: .zero, replica: stranger))
    }

    @Test func anImportedTimeBeyondTheSaneFutureIsNotUsedForTheVersion() throws {
        let tmp = TemporaryFolder()
        let store = try TaskStore.open(StoreLocation(folder: tmp.url))
        var json = TaskJSON(title: "From a bad file")
        json.modified = "6000-01-01T00:00:00Z"
        _ = try store.importTasks([json])
        let task = try #require(try store.allTasks().first)
        #expect(task.versions.values.allSatisfy { !HybridClock.isBeyondSaneFuture($0.timestamp, now: SystemClock().nowMillis()) })
    }
}

@Suite struct StoreErrorTests {
    /// A full disk names the store's folder (issue 10: a first sync failed
    /// with "database or disk is full" and no path).
    @Test func aFullDiskNamesTheStoreFolder() {
        let error = TaskStore.storeError(DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full"),
                                         path: "/data/nextup/nextup.sqlite", folder: "/data/nextup")
        #expect(error == .notWritable(path: "/data/nextup", reason: "the disk is full; free some space and try again"))
        #expect(error.description.contains("/data/nextup"))
    }
}
