import Foundation
import Glibc
import NextUpCore
import NextUpStore
import NextUpTestSupport
import Testing
@testable import NextUpSync

/// Logs of replicas that are gone do not pile up (issue 10): a peer's log not
/// written for `retireLogsAfterMillis` is retired by a replica that merged all
/// of it, after re-publishing what it still holds under that id — so a replica
/// that never read the retired log still converges, and the retired replica,
/// if it comes back, rewrites its log and loses nothing.
@Suite struct LogRetirementTests {
    static let day: Int64 = 86_400_000

    func age(_ file: URL, days: Int) throws {
        let date = Date().addingTimeInterval(-Double(days) * 86_400)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
    }

    func logs(_ peer: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: peer.path).filter { $0.hasPrefix("nextup-") && $0.hasSuffix(".log") }.sorted()
    }

    func exported(_ store: TaskStore) throws -> [TaskJSON] {
        try store.allTasks().map { TaskJSON($0, versions: true) }.sorted { $0.id! < $1.id! }
    }

    @Test func aSilentLogIsRetiredAndWhatItHeldStillReachesEveryone() throws {
        let peer = try TemporaryFolder("peer")
        let options = SyncOptions(retireLogsAfterMillis: 90 * Self.day)
        let clock = TestClock(millis: Int64(Date().timeIntervalSince1970 * 1000))
        let gone = try StoreReplica(peer: peer.url, clock: clock, options: options)
        let stays = try StoreReplica(peer: peer.url, clock: clock, options: options)
        var draft = try TaskDraft(title: "written by the machine that goes away")
        draft.category = "Admin"
        let task = try gone.store.add(draft)
        _ = try gone.store.edit(task.id, set: [(.importance, .int(3))])
        try gone.engine.syncOnce()
        try stays.engine.syncOnce()
        let goneLog = "nextup-\(try gone.store.replicaID().rawValue).log"

        // Not silent long enough: kept.
        clock.advance(30 * Self.day)
        var report = try stays.engine.syncOnce()
        #expect(report.retiredLogs.isEmpty)
        #expect(try logs(peer.url).contains(goneLog))

        // Silent for 100 days: retired, its changes re-published.
        clock.advance(70 * Self.day)
        report = try stays.engine.syncOnce()
        #expect(report.retiredLogs.keys.sorted() == [goneLog])
        #expect(report.lines.contains { $0.hasPrefix("retired \(goneLog): its machine has made no change for 100 days; re-published the ") }, "\(report.lines)")
        #expect(!report.lines.contains { $0.contains("restored from a backup") }, "\(report.lines)")
        #expect(try !logs(peer.url).contains(goneLog))
        // Set aside just now: kept for a person to look at, however old its writer's clock made it look.
        _ = try stays.engine.syncOnce()
        #expect(FileManager.default.fileExists(atPath: peer.url.appendingPathComponent(goneLog + PeerFileName.mergedSuffix).path))

        // A machine that never read the retired log gets everything, with the versions.
        let newcomer = try StoreReplica(peer: peer.url, clock: clock, options: options)
        try newcomer.engine.syncOnce()
        let arrived = try #require(try newcomer.store.task(task.id))
        #expect(arrived.category == "Admin" && arrived.importance == .high)
        #expect(arrived.versions == (try gone.store.task(task.id))?.versions)

        // The machine comes back: it rewrites its log, keeps its id, says why, and all agree.
        let before = try gone.store.replicaID()
        let back = try gone.engine.syncOnce()
        #expect(back.ownLogRewritten == .retired)
        #expect(try gone.store.replicaID() == before)
        #expect(try logs(peer.url).contains(goneLog))
        for _ in 0..<2 { for r in [gone, stays, newcomer] { try r.engine.syncOnce() } }
        #expect(try exported(gone.store) == exported(stays.store))
        #expect(try exported(newcomer.store) == exported(stays.store))
    }

    @Test func aLogNotMergedToItsEndIsNotRetired() throws {
        let peer = try TemporaryFolder("peer")
        let options = SyncOptions(retireLogsAfterMillis: 90 * Self.day)
        let clock = TestClock(millis: Int64(Date().timeIntervalSince1970 * 1000))
        let gone = try StoreReplica(peer: peer.url, clock: clock, options: options)
        let stays = try StoreReplica(peer: peer.url, clock: clock, options: options)
        _ = try gone.store.add(TaskDraft(title: "one"))
        try gone.engine.syncOnce()
        let goneLog = peer.url.appendingPathComponent("nextup-\(try gone.store.replicaID().rawValue).log")
        // A damaged line: the reader skips it, so the log is not all merged.
        var bytes = try Data(contentsOf: goneLog)
        if let last = bytes.lastIndex(of: UInt8(ascii: "\"")) { bytes[last - 3] = UInt8(ascii: "!") }
        try bytes.write(to: goneLog)
        try stays.engine.syncOnce()
        clock.advance(400 * Self.day)
        let report = try stays.engine.syncOnce()
        #expect(report.retiredLogs.isEmpty)
        #expect(FileManager.default.fileExists(atPath: goneLog.path))
    }

    /// Issue 37: a log whose file looks old (a sync tool that sets old
    /// mtimes, a laptop back after months, a writer's clock behind) but that
    /// this machine saw change is not retired, and neither is one whose
    /// writer's newest change is recent by its own clock.
    @Test func retirementIsDecidedFromWhatTheLogsSayNotFromModificationTimes() throws {
        let peer = try TemporaryFolder("peer")
        let options = SyncOptions(retireLogsAfterMillis: 180 * Self.day)
        let truth = Int64(Date().timeIntervalSince1970 * 1000)
        let clock = TestClock(millis: truth)
        // A laptop whose clock is 300 days behind: every version it writes looks old.
        let laptop = try StoreReplica(peer: peer.url, clock: TestClock(millis: truth - 300 * Self.day), options: options)
        let desk = try StoreReplica(peer: peer.url, clock: clock, options: options)
        let task = try laptop.store.add(TaskDraft(title: "on the laptop"))
        try laptop.engine.syncOnce()
        try desk.engine.syncOnce()
        let laptopLog = peer.url.appendingPathComponent("nextup-\(try laptop.store.replicaID().rawValue).log")
        let deskLog = peer.url.appendingPathComponent("nextup-\(try desk.store.replicaID().rawValue).log")
        let deskBefore = try Data(contentsOf: deskLog).count

        // 200 days on, the laptop writes again; the copy arrives with an old mtime.
        clock.advance(200 * Self.day)
        _ = try laptop.store.edit(task.id, set: [(.notes, .string("back after 200 days"))])
        try laptop.engine.syncOnce()
        try age(laptopLog, days: 400)
        var report = try desk.engine.syncOnce()
        #expect(report.retiredLogs.isEmpty, "\(report.lines)")
        #expect(try desk.store.task(task.id)?.notes == "back after 200 days")
        // Its writer's clock says its newest change is 300 days old, but this
        // machine saw the log change today: kept, and kept again later.
        clock.advance(100 * Self.day)
        report = try desk.engine.syncOnce()
        #expect(report.retiredLogs.isEmpty, "\(report.lines)")
        #expect(FileManager.default.fileExists(atPath: laptopLog.path))
        #expect(try Data(contentsOf: deskLog).count == deskBefore, "the desk re-published what it did not need to")
    }

    /// Issue 37: a dead machine's log whose last line was torn is retired
    /// like any silent log, and its torn line is reported once, not at every sync.
    @Test func aSilentLogWithATornLastLineIsRetiredAndWarnsOnce() throws {
        let peer = try TemporaryFolder("peer")
        let options = SyncOptions(retireLogsAfterMillis: 90 * Self.day)
        let clock = TestClock(millis: Int64(Date().timeIntervalSince1970 * 1000))
        let gone = try StoreReplica(peer: peer.url, clock: clock, options: options)
        let stays = try StoreReplica(peer: peer.url, clock: clock, options: options)
        _ = try gone.store.add(TaskDraft(title: "one"))
        try gone.engine.syncOnce()
        let goneLog = peer.url.appendingPathComponent("nextup-\(try gone.store.replicaID().rawValue).log")
        // The machine died in the middle of a write.
        let handle = try FileHandle(forWritingTo: goneLog)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"task":"0000"#.utf8))
        try handle.close()
        var report = try stays.engine.syncOnce()
        #expect(report.issues.contains { if case .incompleteLastLine = $0.kind { true } else { false } })
        report = try stays.engine.syncOnce()
        #expect(report.issues.isEmpty, "\(report.lines)")
        clock.advance(100 * Self.day)
        report = try stays.engine.syncOnce()
        #expect(report.retiredLogs.keys.sorted() == [goneLog.lastPathComponent], "\(report.lines)")
        #expect(report.issues.isEmpty, "\(report.lines)")
    }
}
