import NextUpTestSupport
import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpSync

/// The sync cycle over the fakes: what each step of DESIGN.md §5 promises.
@Suite struct SyncCycleTests {
    @Test func theMergeIsAnnouncedOnceCommittedAndBeforeTheUpload() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        try a.sync(); try b.sync()
        let remote = a.add("Made on A")
        try a.sync()
        let local = b.add("Made on B")
        let ownLog = LogFormat.fileName(for: try b.storage.replicaID())
        let logBefore = try folder.info(ownLog)?.size
        var announced: [(merged: Bool, uploaded: Bool)] = []
        let report = try b.cycle.run(merged: {
            announced.append((b.storage.task(remote) != nil, try! folder.info(ownLog)?.size != logBefore))
        })
        #expect(announced.count == 1)
        #expect(announced.first?.merged == true, "the merged task is in the store")
        #expect(announced.first?.uploaded == false, "the local change is not uploaded yet")
        #expect(report.uploaded > 0 && a.storage.task(local) == nil)
        // A cycle that merges nothing announces nothing.
        var again = 0
        _ = try b.cycle.run(merged: { again += 1 })
        #expect(again == 0)
    }

    @Test func aTaskMadeOnOneReplicaArrivesWithEveryFieldAndVersion() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        let id = a.add("Buy milk")
        a.set(id, [(.urgency, .string("urgent")), (.importance, .int(3)), (.duration, .int(30)), (.category, .string("Admin")), (.due, .string("2026-12-01"))])
        let first = try a.sync()
        #expect(first.uploaded > 0)
        let report = try b.sync()
        #expect(report.merged == 7 && report.changedTasks == [id])
        #expect(report.peers == [try a.storage.replicaID()])
        #expect(b.storage.task(id) == a.storage.task(id))
    }

    @Test func concurrentEditsOfDifferentFieldsBothSurvive() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        let id = a.add("Shared")
        try a.sync(); try b.sync()
        a.set(id, [(.urgency, .string("urgent"))])
        b.set(id, [(.category, .string("Deep Work"))])
        try a.sync(); try b.sync(); try a.sync()
        for replica in [a, b] {
            let task = try #require(replica.storage.task(id))
            #expect(task.urgency == .urgent)
            #expect(task.category == "Deep Work")
        }
    }

    @Test func theSameFieldGoesToTheLaterVersion() throws {
        let folder = InMemoryPeerFolder()
        let clock = TestClock()
        let a = FakeReplica(folder: folder, clock: clock), b = FakeReplica(folder: folder, clock: clock)
        let id = a.add("Shared")
        try a.sync(); try b.sync()
        a.set(id, [(.title, .string("from A"))])
        clock.advance(1_000)
        b.set(id, [(.title, .string("from B, later"))])
        try b.sync(); try a.sync(); try b.sync()
        #expect(a.storage.task(id)?.title == "from B, later")
        #expect(b.storage.task(id)?.title == "from B, later")
    }

    @Test(arguments: [-oneDay, oneDay])
    func anEditMadeAfterSeeingAValueWinsWhateverTheClocksSay(_ offset: Int64) throws {
        let folder = InMemoryPeerFolder()
        let truth = TestClock()
        let a = FakeReplica(folder: folder, clock: TestClock(millis: truth.nowMillis()))
        let b = FakeReplica(folder: folder, clock: TestClock(millis: truth.nowMillis(), offset: offset))
        let id = a.add("Plan")
        a.set(id, [(.importance, .int(1)), (.notes, .string("set on A"))])
        try a.sync(); try b.sync()
        // B saw A's values; B's own clock is a day off; B's edit must win.
        b.set(id, [(.importance, .int(3))])
        b.set(id, [(.notes, .string(""))])
        try b.sync(); try a.sync()
        #expect(a.storage.task(id)?.importance == .high)
        #expect(a.storage.task(id)?.notes == "")
        #expect(b.storage.task(id)?.importance == .high)
        // And A editing after seeing B's value wins back.
        a.set(id, [(.importance, .int(2))])
        try a.sync(); try b.sync()
        #expect(b.storage.task(id)?.importance == .medium)
    }

    @Test func aSecondSyncWithNothingNewWritesNothingAndChangesNothing() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        let id = a.add("One")
        _ = b.add("Two")
        try a.sync(); try b.sync(); try a.sync()
        let bytes = try folder.list().map { ($0.name, folder.contents(of: $0.name)!) }
        let stateA = a.storage.tasks, stateB = b.storage.tasks
        for replica in [a, b] {
            let report = try replica.sync()
            #expect(report.uploaded == 0 && report.merged == 0 && report.bytesWritten == 0)
        }
        #expect(try folder.list().map { ($0.name, folder.contents(of: $0.name)!) }.elementsEqual(bytes, by: { $0 == $1 }))
        #expect(a.storage.tasks == stateA && b.storage.tasks == stateB)
        // A no-op edit makes no change, hence no log line.
        #expect(a.set(id, [(.title, .string("One"))]).isEmpty)
        #expect(try a.sync().bytesWritten == 0)
        #expect(try folder.list().map { ($0.name, folder.contents(of: $0.name)!) }.elementsEqual(bytes, by: { $0 == $1 }))
    }

    @Test func oneEditCostsOneLineAndOnlyTheNewBytesAreRead() throws {
        let inner = InMemoryPeerFolder()
        let folder = CountingPeerFolder(inner)
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        var ids: [TaskID] = []
        for n in 0..<2_000 { ids.append(a.add("Task \(n)")) }
        try a.sync(); try b.sync(); try a.sync()
        let logSize = try #require(try inner.info(LogFormat.fileName(for: try a.storage.replicaID()))).size
        #expect(logSize > 100_000)
        a.set(ids[1_234], [(.category, .string("Learning"))])
        folder.bytesRead = 0
        let upload = try a.sync()
        #expect(upload.uploaded == 1 && upload.bytesWritten < 300)
        #expect(folder.bytesRead < 64, "the writer read \(folder.bytesRead) bytes to append one line")
        folder.bytesRead = 0
        let download = try b.sync()
        #expect(download.merged == 1)
        #expect(folder.bytesRead < 8_192, "read \(folder.bytesRead) bytes of a \(logSize)-byte log for one change")
        #expect(b.storage.task(ids[1_234])?.category == "Learning")
    }

    @Test func aTornAppendIsSkippedByReadersAndRepairedByItsWriter() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        let first = a.add("Before the crash")
        try a.sync()
        let second = a.add("Written during the crash")
        folder.tearNextAppend(after: 40)
        #expect(throws: InMemoryPeerFolder.SimulatedCrash.self) { try a.sync() }
        let read = try b.sync()
        #expect(read.issues.contains { if case .incompleteLastLine = $0.kind { true } else { false } })
        #expect(b.storage.task(first) != nil && b.storage.task(second) == nil)
        // The writer cuts the torn tail and writes the change again.
        let repair = try a.sync()
        #expect(repair.uploaded > 0)
        let after = try b.sync()
        #expect(after.issues.isEmpty)
        #expect(b.storage.task(second) == a.storage.task(second))
    }

    @Test func badInputInThePeerFolderIsReportedAndSkippedAndGoodFilesStillMerge() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), reader = FakeReplica(folder: folder)
        let id = a.add("Good task")
        try a.sync()
        let damaged = ReplicaID.make(), noisy = ReplicaID.make(), newer = ReplicaID.make(), empty = ReplicaID.make()
        // A peer log with damaged lines around a good one.
        let survivor = Fixtures.task(77)
        var bytes = LogHeader(replica: damaged, created: 1).encodedLine()
        bytes += Array("garbage line {{{\n".utf8)
        bytes += [0xFF, 0xFE, 0xC3, 0x28, 0x0A]
        bytes += [UInt8](repeating: UInt8(ascii: "z"), count: 10 * 1024 * 1024) + [0x0A]
        bytes += LogRecord(task: survivor, changes: [Fixtures.change(survivor, .title, .string("survives"), Version(timestamp: HybridTimestamp(millis: 5), replica: damaged))]).encodedLine(owner: damaged)
        bytes += Array("{\"task\":\"torn".utf8)
        folder.put(LogFormat.fileName(for: damaged), bytes)
        var random = SeededRandom(seed: 42)
        folder.put(LogFormat.fileName(for: noisy), (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &random) })
        folder.put(LogFormat.fileName(for: newer), Array("{\"format\":\"nextup-log\",\"version\":2,\"replica\":\"\(newer)\"}\n".utf8))
        folder.put(LogFormat.fileName(for: empty), [])
        folder.put("nextup-not-a-replica.log", Array("hello\n".utf8))

        let report = try reader.sync()
        #expect(reader.storage.task(id)?.title == "Good task")
        #expect(reader.storage.task(survivor)?.title == "survives")
        let byFile = Dictionary(grouping: report.issues, by: \.file)
        let kinds = byFile[LogFormat.fileName(for: damaged)]?.map(\.kind) ?? []
        #expect(kinds.contains(.checksumMismatch))
        #expect(kinds.contains(.invalidUTF8))
        #expect(kinds.contains(.lineTooLong(bytes: 10 * 1024 * 1024)))
        #expect(kinds.contains { if case .incompleteLastLine = $0 { true } else { false } })
        #expect(byFile[LogFormat.fileName(for: noisy)]?.first.map { if case .notALog = $0.kind { true } else { false } } == true)
        #expect(byFile[LogFormat.fileName(for: newer)]?.map(\.kind) == [.newerVersion(2)])
        #expect(byFile[LogFormat.fileName(for: empty)]?.map(\.kind) == [.emptyFile])
        #expect(byFile["nextup-not-a-replica.log"] != nil)
        #expect(report.lines.contains { $0.contains("newer than this nextup reads") })
        // Nothing damaged was taken as a change, and a second sync stays calm.
        #expect(reader.storage.tasks.count == 2)
        let again = try reader.sync()
        #expect(again.merged == 0)
    }

    @Test func aSyncthingConflictCopyIsMergedRepublishedAndRenamedAside() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), c = FakeReplica(folder: folder)
        let kept = a.add("In the log")
        try a.sync()
        let aID = try a.storage.replicaID()
        // The conflict copy holds A's log plus lines the current log lacks.
        let only = Fixtures.task(501)
        var copy = folder.contents(of: LogFormat.fileName(for: aID))!
        copy += LogRecord(task: only, changes: [
            Fixtures.change(only, .title, .string("Only in the conflict copy"), Version(timestamp: HybridTimestamp(millis: 9_000), replica: aID)),
            Fixtures.change(only, .created, .int(9_000), Version(timestamp: HybridTimestamp(millis: 9_000), replica: aID)),
        ]).encodedLine(owner: aID)
        let conflictName = "nextup-\(aID).sync-conflict-20261122-101112-ABCDEFG.log"
        folder.put(conflictName, copy)
        folder.put(".syncthing.nextup-\(aID).log.tmp", Array("half written".utf8))
        folder.put("~syncthing~nextup-\(aID).log.tmp", Array("half written".utf8))

        let report = try c.sync()
        #expect(report.conflictCopiesMerged == [conflictName])
        #expect(c.storage.task(kept)?.title == "In the log")
        #expect(c.storage.task(only)?.title == "Only in the conflict copy")
        #expect(try folder.info(conflictName) == nil)
        #expect(try folder.info(conflictName + PeerFileName.mergedSuffix) != nil)
        #expect(report.issues.isEmpty, "temp files are ignored: \(report.issues)")
        // A replica arriving after the copy was renamed aside still gets its changes.
        let late = FakeReplica(folder: folder)
        try late.sync()
        #expect(late.storage.task(only)?.title == "Only in the conflict copy")
    }

    @Test func aDropboxConflictCopyIsMergedToo() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), c = FakeReplica(folder: folder)
        _ = a.add("x")
        try a.sync()
        let aID = try a.storage.replicaID()
        let only = Fixtures.task(502)
        var copy = LogHeader(replica: aID, created: 1).encodedLine()
        copy += LogRecord(task: only, changes: [Fixtures.change(only, .title, .string("dropbox"), Version(timestamp: HybridTimestamp(millis: 1), replica: aID))]).encodedLine(owner: aID)
        folder.put("nextup-\(aID) (Alice's conflicted copy 2026-11-22).log", copy)
        try c.sync()
        #expect(c.storage.task(only)?.title == "dropbox")
    }

    @Test func aDeletedStoreGetsEveryTaskBackWithEveryField() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        for n in 0..<20 {
            let id = a.add("Task \(n)")
            a.set(id, [(.urgency, .string("urgent")), (.importance, .int(Int64(n % 3 + 1)))])
            if n % 4 == 0 { a.set(id, [(.deleted, .bool(true))]) }
        }
        let bOnly = b.add("Made on B")
        b.set(bOnly, [(.category, .string("Admin"))])
        try a.sync(); try b.sync(); try a.sync()
        let before = a.storage.tasks
        a.storage.reset()
        try a.sync()
        #expect(differences(a.storage.tasks, before).isEmpty)
    }

    @Test func aDeletedOwnLogIsRewrittenFromTheStore() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder)
        _ = a.add("one")
        _ = a.add("two")
        try a.sync()
        let name = LogFormat.fileName(for: try a.storage.replicaID())
        folder.remove(name)
        let report = try a.sync()
        #expect(report.ownLogRewritten == .missing)
        let fresh = FakeReplica(folder: folder)
        try fresh.sync()
        #expect(fresh.storage.tasks == a.storage.tasks)
        #expect(fresh.storage.tasks.count == 2)
    }

    @Test func aReplacedOwnLogIsReadThenRewritten() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder)
        _ = a.add("one")
        try a.sync()
        let name = LogFormat.fileName(for: try a.storage.replicaID())
        folder.put(name, Array("not a log any more\n".utf8))
        let report = try a.sync()
        #expect(report.ownLogRewritten == .replaced)
        #expect(report.newReplicaID == nil)
        let fresh = FakeReplica(folder: folder)
        try fresh.sync()
        #expect(fresh.storage.tasks == a.storage.tasks)
    }

    @Test func aCopiedStoreTakesANewIdAndNothingIsLost() throws {
        let folder = InMemoryPeerFolder()
        let original = FakeReplica(folder: folder)
        _ = original.add("Before the copy")
        try original.sync()
        // The copy: same id, same tasks, same sync state.
        let copy = FakeReplica(folder: folder)
        copy.storage.reset(replica: try original.storage.replicaID())
        for task in original.storage.tasks.values { _ = try copy.storage.merge(task.allChanges, cursor: nil) }
        try copy.storage.recordUpload(through: copy.storage.newestLocalChangeSeq(), ownLog: try #require(try original.storage.ownLogState()))
        let onOriginal = original.add("Made on the original")
        let onCopy = copy.add("Made on the copy")
        try original.sync()
        let report = try copy.sync()
        let oldID = try original.storage.replicaID()
        #expect(report.newReplicaID != nil)
        #expect(try copy.storage.replicaID() != oldID)
        try original.sync(); try copy.sync(); try original.sync()
        #expect(try original.storage.replicaID() == oldID, "the original keeps its id")
        for replica in [original, copy] {
            #expect(replica.storage.task(onOriginal)?.title == "Made on the original")
            #expect(replica.storage.task(onCopy)?.title == "Made on the copy")
        }
        #expect(differences(original.storage.tasks, copy.storage.tasks).isEmpty)
    }

    @Test func compactionStartsANewGenerationThatReadersFollow() throws {
        let folder = InMemoryPeerFolder()
        let options = SyncOptions(compactionMinimumBytes: 2_000, compactionFactor: 2)
        let a = FakeReplica(folder: folder, options: options), b = FakeReplica(folder: folder)
        let id = a.add("Edited many times")
        try a.sync(); try b.sync()
        var compacted = false
        for n in 0..<60 {
            a.set(id, [(.notes, .string("revision \(n) " + String(repeating: "x", count: 50)))])
            if try a.sync().ownLogRewritten == .compaction { compacted = true; break }
        }
        #expect(compacted)
        let size = try #require(try folder.info(LogFormat.fileName(for: try a.storage.replicaID()))).size
        #expect(size < 2_000)
        let report = try b.sync()
        #expect(report.fullReads.values.contains("its writer started a new generation"))
        #expect(b.storage.tasks == a.storage.tasks)
    }

    @Test func aTimestampFarAheadIsMergedAndReportedAsSkew() throws {
        let folder = InMemoryPeerFolder()
        let ahead = FakeReplica(folder: folder, clock: TestClock(offset: 2 * 3_600_000))
        let local = FakeReplica(folder: folder)
        let id = ahead.add("From the future")
        try ahead.sync()
        let report = try local.sync()
        #expect(local.storage.task(id) != nil)
        #expect(report.clockSkew.count == 1)
        #expect(report.lines.contains { $0.contains("ahead of this machine's clock") })
    }

    @Test func aMissingPeerFolderIsAClearErrorAndNothingIsCreated() throws {
        let temp = try TemporaryFolder("peer")
        let storage = InMemorySyncStorage()
        let missing = LocalPeerFolder(url: temp.path("unmounted"))
        #expect(throws: PeerFolderError.missing(temp.path("unmounted").path)) { try SyncCycle(storage: storage, folder: missing).run() }
        #expect(!FileManager.default.fileExists(atPath: temp.path("unmounted").path))
        try Data("x".utf8).write(to: temp.path("a-file"))
        let file = LocalPeerFolder(url: temp.path("a-file"))
        #expect(throws: PeerFolderError.notAFolder(temp.path("a-file").path)) { try SyncCycle(storage: storage, folder: file).run() }
    }
}

/// Counts the bytes read through a peer folder.
final class CountingPeerFolder: ForwardingPeerFolder, @unchecked Sendable {
    var bytesRead = 0
    override func read(_ name: String, at offset: Int64, count: Int) throws -> [UInt8] {
        let bytes = try inner.read(name, at: offset, count: count)
        bytesRead += bytes.count
        return bytes
    }
}

@Suite struct VanishingFileTests {
    /// Lists one more log than there is, as when a file is removed between
    /// the listing and the read.
    final class PhantomPeerFolder: ForwardingPeerFolder, @unchecked Sendable {
        let phantom = LogFormat.fileName(for: ReplicaID.make())
        override func list() throws -> [PeerFileInfo] { try inner.list() + [PeerFileInfo(name: phantom, size: 500, identity: 999)] }
    }

    @Test func aFileGoneBetweenListingAndReadingIsSkippedQuietly() throws {
        let memory = InMemoryPeerFolder()
        let a = FakeReplica(folder: memory)
        let id = a.add("still merged")
        try a.sync()
        let reader = FakeReplica(folder: PhantomPeerFolder(memory))
        let report = try reader.sync()
        #expect(reader.storage.task(id)?.title == "still merged")
        #expect(report.issues.isEmpty, "\(report.issues)")
    }
}
