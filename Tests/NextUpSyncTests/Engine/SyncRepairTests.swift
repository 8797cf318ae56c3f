import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpSync

/// Issue 10's repairs over the fakes: re-publishing what a restored peer's
/// log lost, the writer's own checksum check, re-reading a file whose damaged
/// lines were skipped, far-future lines, and the folder's identity.
@Suite struct SyncRepairTests {
    func logName(_ replica: FakeReplica) throws -> String { LogFormat.fileName(for: try replica.storage.replicaID()) }

    @Test func aReplicaRestoredFromABackupGetsBackWhatOthersHeld() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        let id = a.add("task")
        try a.sync(); try b.sync()
        let name = try logName(a)
        let store = a.storage.backup(), log = try #require(folder.contents(of: name))
        a.set(id, [(.notes, .string("edited after backup"))])
        try a.sync(); try b.sync()
        a.storage.restore(store)
        folder.put(name, log)
        #expect(a.storage.task(id)?.notes == "")
        let onB = try b.sync()
        #expect(onB.republished == [name: 1], "\(onB.lines)")
        let onA = try a.sync()
        #expect(onA.newReplicaID != nil, "a restored store takes a new id: its clock went back")
        #expect(a.storage.task(id)?.notes == "edited after backup")
        try b.sync(); try a.sync()
        #expect(a.storage.tasks == b.storage.tasks)
        // Quiet again: nothing more to re-publish.
        #expect(try b.sync(full: true).republished.isEmpty)
    }

    @Test func aRestoredLogThatGrewPastTheCursorIsNoticedByItsLastLine() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        _ = a.add("first")
        try a.sync()
        let name = try logName(a)
        let store = a.storage.backup(), log = try #require(folder.contents(of: name))
        let lost = a.add("made after the backup")
        try a.sync(); try b.sync()
        a.storage.restore(store)
        folder.put(name, log)
        _ = a.add("made after the restore, with a longer title than the lost one")
        try a.sync()
        let report = try b.sync()
        #expect(report.fullReads[name]?.contains("no longer holds the line read last") == true, "\(report.lines)")
        #expect(report.republished[name] ?? 0 >= 2)
        try a.sync(); try b.sync(); try a.sync()
        #expect(a.storage.task(lost)?.title == "made after the backup")
        #expect(a.storage.tasks == b.storage.tasks)
    }

    @Test func aLineOverwrittenInPlaceIsRepairedByItsWriterAtItsNextSync() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder)
        for n in 0..<3 { _ = a.add("task number \(n)") }
        try a.sync()
        let name = try logName(a)
        let before = try #require(folder.contents(of: name))
        folder.overwrite(name, at: before.count / 2, with: Array("XXXXXXXXXXXXXXXXXXXX".utf8))
        #expect(folder.contents(of: name)?.count == before.count)
        let reader = FakeReplica(folder: folder)
        #expect(try reader.sync().issues.contains { $0.kind == .checksumMismatch })
        #expect(try a.sync().ownLogRewritten == .damaged)
        let fresh = FakeReplica(folder: folder)
        let report = try fresh.sync()
        #expect(report.issues.isEmpty && fresh.storage.tasks == a.storage.tasks)
        // The reader that skipped the line reads the new generation whole.
        try reader.sync()
        #expect(reader.storage.tasks == a.storage.tasks)
    }

    @Test func aFileWhoseDamagedLinesWereSkippedIsReadAgainWhenAWholeCopyArrives() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        for n in 0..<3 { _ = a.add("task number \(n)") }
        try a.sync()
        let name = try logName(a)
        let whole = try #require(folder.contents(of: name))
        var damaged = whole
        for i in 0..<10 { damaged[whole.count / 2 + i] = UInt8(ascii: "#") }
        folder.put(name, damaged)  // a copy damaged on its way, as a file-sync tool delivers it
        #expect(try b.sync().issues.contains { $0.kind == .checksumMismatch })
        #expect(b.storage.tasks.count < 3)
        folder.put(name, whole)  // the whole copy arrives: same generation, same size
        let report = try b.sync()
        #expect(report.fullReads[name]?.contains("damaged lines") == true, "\(report.lines)")
        #expect(b.storage.tasks == a.storage.tasks)
    }

    @Test func aFarFutureLineIsRefusedAndLocalWritesGoOn() throws {
        let folder = InMemoryPeerFolder()
        let clock = TestClock()
        let a = FakeReplica(folder: folder, clock: clock)
        let id = a.add("mine")
        let stranger = Fixtures.replicaC
        var bytes = LogHeader(replica: stranger, created: 0).encodedLine()
        bytes += LogRecord(task: id, changes: [Fixtures.change(id, .title, .string("hijacked"), Version(timestamp: .greatest, replica: stranger))]).encodedLine(owner: stranger)
        folder.put(LogFormat.fileName(for: stranger), bytes)
        let report = try a.sync()
        #expect(report.merged == 0 && report.issues.contains { $0.description.contains("more than a year ahead") })
        #expect(a.storage.task(id)?.title == "mine")
        let edit = a.set(id, [(.notes, .string("still writable"))])
        #expect(edit.first.map { !HybridClock.isBeyondSaneFuture($0.version.timestamp, now: clock.nowMillis()) } == true)
    }

    @Test func aFolderThatLostItsMarkerAndLogsIsRefusedUntilAdopted() throws {
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder)
        _ = a.add("one")
        try a.sync()
        #expect(folder.contents(of: PeerFolderMarker.fileName) != nil)
        // Unmounted: what was there is gone.
        for info in try folder.list() { folder.remove(info.name) }
        _ = a.add("two")
        #expect(throws: PeerFolderError.self) { try a.sync() }
        #expect(try folder.list().isEmpty, "nothing is written to a folder that looks unmounted")
        #expect(a.cycle.diagnose().first?.contains("looks unmounted or replaced") == true)
        let adopted = try a.cycle.run(adoptFolder: true)
        #expect(adopted.ownLogRewritten != nil)
        let fresh = FakeReplica(folder: folder)
        try fresh.sync()
        #expect(fresh.storage.tasks.count == 2)
    }
}
