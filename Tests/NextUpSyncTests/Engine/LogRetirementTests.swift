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
        let gone = try StoreReplica(peer: peer.url, options: options)
        let stays = try StoreReplica(peer: peer.url, options: options)
        var draft = try TaskDraft(title: "written by the machine that goes away")
        draft.category = "Admin"
        let task = try gone.store.add(draft)
        _ = try gone.store.edit(task.id, set: [(.importance, .int(3))])
        try gone.engine.syncOnce()
        try stays.engine.syncOnce()
        let goneLog = "nextup-\(try gone.store.replicaID().rawValue).log"

        // Not silent long enough: kept.
        try age(peer.url.appendingPathComponent(goneLog), days: 30)
        var report = try stays.engine.syncOnce()
        #expect(report.retiredLogs.isEmpty)
        #expect(try logs(peer.url).contains(goneLog))

        // Silent for 100 days: retired, its changes re-published.
        try age(peer.url.appendingPathComponent(goneLog), days: 100)
        report = try stays.engine.syncOnce()
        #expect(report.retiredLogs.keys.sorted() == [goneLog])
        #expect(report.lines.contains { $0.hasPrefix("retired \(goneLog): not written for 100 days") }, "\(report.lines)")
        #expect(try !logs(peer.url).contains(goneLog))
        // The set-aside copy is old, so the next listing removes it.
        _ = try stays.engine.syncOnce()
        #expect(try !FileManager.default.contentsOfDirectory(atPath: peer.url.path).contains { $0.hasPrefix(goneLog) })

        // A machine that never read the retired log gets everything, with the versions.
        let newcomer = try StoreReplica(peer: peer.url, options: options)
        try newcomer.engine.syncOnce()
        let arrived = try #require(try newcomer.store.task(task.id))
        #expect(arrived.category == "Admin" && arrived.importance == .high)
        #expect(arrived.versions == (try gone.store.task(task.id))?.versions)

        // The machine comes back: it rewrites its log, keeps its id, and all agree.
        let before = try gone.store.replicaID()
        try gone.engine.syncOnce()
        #expect(try gone.store.replicaID() == before)
        #expect(try logs(peer.url).contains(goneLog))
        for _ in 0..<2 { for r in [gone, stays, newcomer] { try r.engine.syncOnce() } }
        #expect(try exported(gone.store) == exported(stays.store))
        #expect(try exported(newcomer.store) == exported(stays.store))
    }

    @Test func aLogNotMergedToItsEndIsNotRetired() throws {
        let peer = try TemporaryFolder("peer")
        let options = SyncOptions(retireLogsAfterMillis: 90 * Self.day)
        let gone = try StoreReplica(peer: peer.url, options: options)
        let stays = try StoreReplica(peer: peer.url, options: options)
        _ = try gone.store.add(TaskDraft(title: "one"))
        try gone.engine.syncOnce()
        let goneLog = peer.url.appendingPathComponent("nextup-\(try gone.store.replicaID().rawValue).log")
        // A damaged line: the reader skips it, so the log is not all merged.
        var bytes = try Data(contentsOf: goneLog)
        if let last = bytes.lastIndex(of: UInt8(ascii: "\"")) { bytes[last - 3] = UInt8(ascii: "!") }
        try bytes.write(to: goneLog)
        try age(goneLog, days: 400)
        let report = try stays.engine.syncOnce()
        #expect(report.retiredLogs.isEmpty)
        #expect(FileManager.default.fileExists(atPath: goneLog.path))
    }
}
