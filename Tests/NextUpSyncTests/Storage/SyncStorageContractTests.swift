import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpSync

/// The ``SyncStorage`` contract, run against the real store and the fake alike.
@Suite struct SyncStorageContractTests {
    let remote = Fixtures.replicaB

    @Test(arguments: StorageKind.allCases)
    func aFreshStoreHasNoSyncState(_ kind: StorageKind) throws {
        try withStorage(kind) { (f: StorageFixture) throws in
            #expect(try f.storage.cursors().isEmpty)
            #expect(try f.storage.ownLogState() == nil)
            #expect(try f.storage.pendingLocalChangeCount() == 0)
            #expect(try f.storage.pendingLocalChanges(limit: 10).through == nil)
            #expect(try f.storage.newestLocalChangeSeq() == 0)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func localChangesArePendingUntilRecordedAsUploaded(_ kind: StorageKind) throws {
        try withStorage(kind) { (f: StorageFixture) throws in
            let id = try f.add("first")
            try f.edit(id, [(.urgency, .string("urgent"))])
            let pending = try f.storage.pendingLocalChanges(limit: 100)
            #expect(Set(pending.changes.map(\.field)).isSuperset(of: [.title, .urgency]))
            #expect(pending.through == (try f.storage.newestLocalChangeSeq()))
            #expect(try f.storage.pendingLocalChangeCount() == 2)
            // A no-op edit records nothing.
            try f.edit(id, [(.urgency, .string("urgent"))])
            #expect(try f.storage.pendingLocalChangeCount() == 2)
            // A limited batch is the oldest write only.
            let first = try f.storage.pendingLocalChanges(limit: 1)
            #expect(first.changes.allSatisfy { $0.field != .urgency })
            let state = OwnLogState(replica: try f.storage.replicaID().rawValue, generation: "g", end: 10, identity: 3, snapshotSize: 10)
            try f.storage.recordUpload(through: try #require(first.through), ownLog: state)
            #expect(try f.storage.ownLogState() == state)
            #expect(try f.storage.pendingLocalChanges(limit: 100).changes.map(\.field) == [.urgency])
            try f.storage.recordUpload(through: try #require(pending.through), ownLog: state)
            #expect(try f.storage.pendingLocalChangeCount() == 0)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func mergeKeepsTheGreatestVersionIsIdempotentAndIsNotALocalChange(_ kind: StorageKind) throws {
        try withStorage(kind) { (f: StorageFixture) throws in
            let task = Fixtures.task(1)
            let newer = Fixtures.change(task, .title, .string("newer"), Fixtures.version(2_000, remote))
            let older = Fixtures.change(task, .title, .string("older"), Fixtures.version(1_000, remote))
            let first = try f.storage.merge([newer, Fixtures.change(task, .created, .int(5), Fixtures.version(1_000, remote))], cursor: nil)
            #expect(first.applied == 2 && first.changedTasks == [task])
            let second = try f.storage.merge([older, newer], cursor: nil)
            #expect(second.applied == 0 && second.superseded == 2 && second.changedTasks.isEmpty)
            #expect(try f.task(task)?.title == "newer")
            #expect(try f.task(task)?.versions[.title] == newer.version)
            #expect(try f.storage.pendingLocalChangeCount() == 0)
            // A value its field refuses is never written.
            let bad = Fixtures.change(task, .importance, .int(9), Fixtures.version(3_000, remote))
            #expect(try f.storage.merge([bad], cursor: nil).rejected == 1)
            #expect(try f.task(task)?.importance == nil)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func theCursorIsStoredWithTheMerge(_ kind: StorageKind) throws {
        try withStorage(kind) { (f: StorageFixture) throws in
            let cursor = PeerCursor(generation: "gen-1", offset: 4_096, identity: 77)
            _ = try f.storage.merge([Fixtures.change(Fixtures.task(1), .title, .string("t"), Fixtures.version(1, remote))],
                                    cursor: (file: "nextup-b.log", cursor: cursor))
            #expect(try f.storage.cursors() == ["nextup-b.log": cursor])
            let later = PeerCursor(generation: "gen-1", offset: 5_000, identity: 78)
            try f.storage.saveCursor(later, forPeerFile: "nextup-b.log")
            #expect(try f.storage.cursors() == ["nextup-b.log": later])
            // Saving where sync stands touches no task and no pending change.
            let pendingBefore = try f.storage.pendingLocalChangeCount()
            let own = OwnLogState(replica: try f.storage.replicaID().rawValue, generation: "g2", end: 7, identity: 4, snapshotSize: 7)
            try f.storage.saveOwnLogState(own)
            #expect(try f.storage.ownLogState() == own)
            #expect(try f.storage.pendingLocalChangeCount() == pendingBefore)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func changesUnderTheOwnIdThatThisStoreNeverMadeAreCounted(_ kind: StorageKind) throws {
        try withStorage(kind) { (f: StorageFixture) throws in
            let me = try f.storage.replicaID()
            let id = try f.add("mine")
            let mine = try #require(try f.task(id)).allChanges
            // Re-reading our own changes (a peer republished them) is not suspicious.
            #expect(try f.storage.merge(mine, cursor: nil).foreignChangesUnderOwnID == 0)
            // A change under our id that we do not hold is.
            let foreign = Fixtures.change(Fixtures.task(9), .title, .string("made by a copy"), Version(timestamp: HybridTimestamp(millis: 5), replica: me))
            #expect(try f.storage.merge([foreign], cursor: nil).foreignChangesUnderOwnID == 1)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func aLocalEditAfterMergingAFutureValueStillWins(_ kind: StorageKind) throws {
        let clock = TestClock()
        try withStorage(kind, clock: clock) { (f: StorageFixture) throws in
            let id = try f.add("task")
            let future = Fixtures.change(id, .category, .string("from the future"),
                                         Version(timestamp: HybridTimestamp(millis: clock.nowMillis() + oneDay), replica: remote))
            #expect(try f.storage.merge([future], cursor: nil).applied == 1)
            let local = try f.edit(id, [(.category, .string("edited after seeing it"))])
            #expect(local.first.map { $0.version > future.version } == true)
            #expect(try f.task(id)?.category == "edited after seeing it")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func adoptingANewIdKeepsEverythingAndForgetsTheOwnLog(_ kind: StorageKind) throws {
        try withStorage(kind) { (f: StorageFixture) throws in
            let before = try f.storage.replicaID()
            let id = try f.add("kept")
            try f.storage.saveOwnLogState(OwnLogState(replica: before.rawValue, generation: "g", end: 1, identity: 1, snapshotSize: 1))
            let cursor = PeerCursor(generation: "g", offset: 9, identity: 1)
            try f.storage.saveCursor(cursor, forPeerFile: "nextup-x.log")
            let after = try f.storage.adoptNewReplicaID()
            #expect(after != before)
            #expect(try f.storage.replicaID() == after)
            #expect(try f.storage.ownLogState() == nil)
            #expect(try f.storage.cursors() == ["nextup-x.log": cursor])
            #expect(try f.task(id)?.title == "kept")
            #expect(try f.task(id)?.versions[.title]?.replica == before)
            let changes = try f.edit(id, [(.title, .string("renamed"))])
            #expect(changes.first?.version.replica == after)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func thePeerFolderIdIsRememberedAndSurvivesANewReplicaID(_ kind: StorageKind) throws {
        try withStorage(kind) { (f: StorageFixture) throws in
            #expect(try f.storage.peerFolderID() == nil)
            try f.storage.rememberPeerFolder(id: "folder-1")
            #expect(try f.storage.peerFolderID() == "folder-1")
            _ = try f.storage.adoptNewReplicaID()
            #expect(try f.storage.peerFolderID() == "folder-1")
            try f.storage.rememberPeerFolder(id: "folder-2")
            #expect(try f.storage.peerFolderID() == "folder-2")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func everyTaskIsHandedOutInBatches(_ kind: StorageKind) throws {
        try withStorage(kind) { (f: StorageFixture) throws in
            var ids: Set<TaskID> = []
            for n in 0..<1_203 {
                _ = try f.storage.merge([Fixtures.change(Fixtures.task(n), .title, .string("t\(n)"), Fixtures.version(Int64(n + 1), remote))], cursor: nil)
                ids.insert(Fixtures.task(n))
            }
            var seen: [TaskID] = []
            var batches = 0
            try f.storage.forEachTaskBatch { batch in
                batches += 1
                seen += batch.map(\.id)
            }
            #expect(Set(seen) == ids && seen.count == ids.count)
            #expect(batches >= 2)
        }
    }
}

@Suite struct SyncStateEncodingTests {
    /// An unchanged cursor must encode to the same text every time, or a quiet
    /// sync rewrites it (and wakes every watcher of the store).
    @Test func theSameStateAlwaysEncodesToTheSameText() throws {
        let cursor = PeerCursor(generation: "218a2419-536d-46c5-af57-4ffc384f3745", offset: 938, identity: 16_230_630)
        let first = try TaskStoreSyncStorage.encode(cursor)
        for _ in 0..<200 { #expect(try TaskStoreSyncStorage.encode(cursor) == first) }
    }
}
