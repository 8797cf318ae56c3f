import Foundation
import Synchronization
import NextUpTestSupport
import Testing
@testable import NextUpSync

/// The watcher on real folders and real inotify, with time driven by hand:
/// a kernel event is queued by the time the write that causes it returns, and
/// ``ChangeWatcher/clockMoved()`` returns once the watcher has handled
/// everything up to then, so nothing here sleeps or waits to see that
/// nothing happened.
@Suite struct ChangeWatcherTests {
    /// Appends in place (no temporary file, unlike `FileManager.createFile`).
    /// A new file is moved in whole from outside the watched folder, so that
    /// each call makes one kernel event (a created file would make two, which
    /// the watcher may see as a signal and a coalesced one).
    private func append(_ text: String, to url: URL) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            let staged = url.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".staged-\(UUID().uuidString)")
            try Data(text.utf8).write(to: staged)
            guard rename(staged.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return
        }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
    }

    /// A started watcher on `watching`/`polling`, its hand-driven clock, and
    /// what it reported.
    /// What a watcher reported.
    private final class Reports: Sendable {
        let signals = Mutex<[FolderChanges]>([])
        let problems = Mutex<[String?]>([])
    }

    private final class Rig: Sendable {
        let clock = ManualMonotonicClock()
        let system = FlakyWatchSystem()
        let reports = Reports()
        let box = WatcherBox()
        var watcher: ChangeWatcher { box.watcher! }
        var calls: Int { reports.signals.withLock { $0.count } }
        var last: FolderChanges? { reports.signals.withLock { $0.last } }
        var problems: [String?] { reports.problems.withLock { $0 } }

        init(watching: [URL], polling: [URL] = [], pollIntervalMillis: Int64 = 3_000,
             ignoring: @escaping @Sendable (String) -> Bool = { _ in false },
             inCallback: @escaping @Sendable (ChangeWatcher) -> Void = { _ in }) throws {
            let reports = self.reports, box = self.box
            box.watcher = ChangeWatcher(
                watching: watching, polling: polling, pollIntervalMillis: pollIntervalMillis,
                ignoring: ignoring, clock: clock, system: system,
                onProblem: { problem in reports.problems.withLock { $0.append(problem) } },
                onChange: { changes in
                    reports.signals.withLock { $0.append(changes) }
                    if let watcher = box.watcher { inCallback(watcher) }
                })
            try watcher.start()
        }

        /// Lets the watcher take in what already happened (at the current
        /// time), then moves time on and waits until it has handled that too.
        func advance(_ millis: Int64) {
            watcher.clockMoved()
            clock.advance(millis)
            watcher.clockMoved()
        }
    }

    @Test func signalsTheFirstWriteAtOnceNamingTheFolder() throws {
        let temp = try TemporaryFolder("watch")
        let rig = try Rig(watching: [temp.url])
        defer { rig.watcher.stop() }
        try append("hello\n", to: temp.path("a.txt"))
        rig.advance(0)
        #expect(rig.calls == 1, "the first event of a burst is signalled at once")
        #expect(rig.last?.contains(temp.url) == true)
        #expect(rig.last?.requested == false)
    }

    @Test func aBurstOfWritesIsCollapsed() throws {
        let temp = try TemporaryFolder("watch")
        let rig = try Rig(watching: [temp.url])
        defer { rig.watcher.stop() }
        rig.watcher.trigger()
        rig.advance(0)
        #expect(rig.calls == 1)
        // Within the quiet period after that signal: coalesced into one more.
        for i in 0..<200 { try append("line \(i)\n", to: temp.path("a.txt")) }
        rig.advance(149)
        #expect(rig.calls == 1, "not before the quiet period is over")
        rig.advance(1)
        #expect(rig.calls == 2)
        #expect(rig.last?.contains(temp.url) == true)
        rig.advance(1_000)
        #expect(rig.calls == 2)
    }

    @Test func seesAnotherProcessCommitToASQLiteStore() throws {
        let temp = try TemporaryFolder("watch")
        let database = temp.path("store.sqlite").path
        try runSQLite(database, "PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        let rig = try Rig(watching: [temp.url])
        defer { rig.watcher.stop() }
        rig.advance(1_000)
        #expect(rig.calls == 0)
        try runSQLite(database, "PRAGMA journal_mode=WAL; INSERT INTO t VALUES (2);")
        rig.advance(0)
        #expect(rig.calls >= 1, "signalled at once")
        rig.advance(150)
        #expect(rig.calls <= 2, "the rest of the commit's events coalesced")
    }

    @Test func ignoredNamesDoNotSignal() throws {
        let temp = try TemporaryFolder("watch")
        let rig = try Rig(watching: [temp.url], ignoring: { $0.hasSuffix(".lock") })
        defer { rig.watcher.stop() }
        for i in 0..<20 { try append("\(i)", to: temp.path("sync.lock")) }
        rig.advance(1_000)
        #expect(rig.calls == 0)
        try append("x", to: temp.path("real.log"))
        rig.advance(150)
        #expect(rig.calls == 1)
    }

    @Test func aWriteAheadLogWhoseOwnerOrModeIsSetIsNoChange() throws {
        let temp = try TemporaryFolder("watch")
        let wal = temp.path("store.sqlite-wal")
        try append("", to: wal)
        let rig = try Rig(watching: [temp.url])
        defer { rig.watcher.stop() }
        for _ in 0..<20 {  // what every read-only `nextup` run as root does (SQLite's fchown)
            chmod(wal.path, 0o600)
            chown(wal.path, getuid(), getgid())
        }
        rig.advance(1_000)
        #expect(rig.calls == 0)
        try append("commit", to: wal)
        rig.advance(150)
        #expect(rig.calls == 1)
    }

    @Test func aPolledFolderIsNoticedWithoutInotify() throws {
        let temp = try TemporaryFolder("watch")
        // Not watched with inotify at all: only the stat poll can see this.
        let rig = try Rig(watching: [], polling: [temp.url], pollIntervalMillis: 100)
        defer { rig.watcher.stop() }
        for _ in 0..<3 { rig.advance(100) }
        rig.advance(150)
        #expect(rig.calls == 0, "an unchanged folder polls the same")
        try append("from another host\n", to: temp.path("nextup-peer.log"))
        rig.advance(50)
        #expect(rig.calls == 0, "seen at the next poll tick, not before")
        rig.advance(50)
        rig.advance(150)
        #expect(rig.calls == 1)
        #expect(rig.last?.contains(temp.url) == true)
    }

    @Test func aFolderThatAppearsLaterIsWatched() throws {
        let temp = try TemporaryFolder("watch")
        let later = temp.path("later")
        let rig = try Rig(watching: [later], pollIntervalMillis: 100)
        defer { rig.watcher.stop() }
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: false)
        rig.advance(100)   // the poll tick watches it; its appearing is a change
        rig.advance(150)
        #expect(rig.calls == 1)
        try append("x", to: later.appendingPathComponent("f"))
        rig.advance(150)
        #expect(rig.calls == 2)
    }

    @Test func aFolderRemovedAndMadeAgainIsWatchedAgain() throws {
        let temp = try TemporaryFolder("watch")
        let folder = try temp.folder("store")
        let rig = try Rig(watching: [folder], pollIntervalMillis: 500)
        defer { rig.watcher.stop() }
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        // Watched again at once when the watcher handles the removal after the
        // folder is back, else at the next poll tick.
        rig.advance(500)
        rig.advance(150)
        let afterRemoval = rig.calls
        #expect(afterRemoval >= 1)
        #expect(rig.last?.contains(folder) == true)
        try append("x", to: folder.appendingPathComponent("f"))
        rig.advance(150)
        #expect(rig.calls == afterRemoval + 1, "the new folder is watched")
    }

    @Test func aFolderMadeAgainLaterIsWatchedWithinAMomentNotAtThePollTick() throws {
        let temp = try TemporaryFolder("watch")
        let folder = try temp.folder("peer")
        let rig = try Rig(watching: [folder], pollIntervalMillis: 10_000)
        defer { rig.watcher.stop() }
        try FileManager.default.removeItem(at: folder)
        rig.advance(0)     // the removal is seen; the folder is not back yet
        rig.advance(150)
        let afterRemoval = rig.calls
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        rig.advance(ChangeWatcher.missingRetryMillis)   // looked for again, watched, and that is a change
        rig.advance(150)
        #expect(rig.calls == afterRemoval + 1)
        try append("x", to: folder.appendingPathComponent("f"))
        rig.advance(150)
        #expect(rig.calls == afterRemoval + 2, "the folder made again is watched long before the poll tick")
    }

    @Test func triggerSignalsAsARequestAndStopEndsCallbacks() throws {
        let temp = try TemporaryFolder("watch")
        let rig = try Rig(watching: [temp.url])
        rig.watcher.trigger()
        rig.advance(150)
        #expect(rig.calls == 1)
        #expect(rig.last == FolderChanges(folders: [], requested: true))
        rig.watcher.stop()
        #expect(!rig.watcher.isRunning, "stop returns once the thread has ended")
        try append("x", to: temp.path("a"))
        rig.watcher.trigger()
        rig.advance(1_000)
        #expect(rig.calls == 1)
    }

    @Test func stopFromInsideTheCallbackDoesNotDeadlock() throws {
        let temp = try TemporaryFolder("watch")
        let rig = try Rig(watching: [temp.url], inCallback: { $0.stop() })
        rig.watcher.trigger()
        rig.advance(150)
        #expect(rig.calls == 1)
        #expect(eventually { !rig.watcher.isRunning })
        try append("x", to: temp.path("a"))
        rig.watcher.trigger()
        #expect(rig.calls == 1)
        rig.watcher.stop()
    }

    @Test func aPollFailureIsReportedAndTheWatchRestarted() throws {
        let temp = try TemporaryFolder("watch")
        let rig = try Rig(watching: [temp.url])
        defer { rig.watcher.stop() }
        rig.system.failPolls(1)
        rig.advance(0)   // wakes the thread; its next poll fails
        rig.advance(0)   // handled after the failure
        #expect(rig.watcher.isRunning)
        // Anything may have changed meanwhile: every folder is signalled.
        rig.advance(150)
        #expect(rig.calls == 1)
        #expect(rig.last?.contains(temp.url) == true)
        #expect(rig.watcher.problem == nil)
        let reported = rig.problems
        #expect(reported.count == 2)
        #expect(reported.first??.contains("poll: Bad file descriptor") == true)
        #expect(reported.last == .some(nil), "cleared once a signal went through")
        // The new inotify instance watches the folder.
        try append("x", to: temp.path("a"))
        rig.advance(150)
        #expect(rig.calls == 2)
    }

    @Test func aWatchThatCannotBeMadeAgainIsRetriedAtEachPollTick() throws {
        let temp = try TemporaryFolder("watch")
        let rig = try Rig(watching: [temp.url], pollIntervalMillis: 500)
        defer { rig.watcher.stop() }
        rig.system.failPolls(1)
        rig.system.failInotify(2)
        rig.advance(0)
        rig.advance(0)
        #expect(rig.watcher.problem?.contains("cannot watch again yet") == true)
        rig.advance(500)   // the first retry fails too
        #expect(rig.watcher.problem?.contains("cannot watch again yet") == true)
        #expect(rig.calls == 0)
        rig.advance(500)   // the second works
        rig.advance(150)
        #expect(rig.calls == 1)
        #expect(rig.watcher.problem == nil)
        try append("x", to: temp.path("a"))
        rig.advance(150)
        #expect(rig.calls == 2)
    }
}

final class WatcherBox: @unchecked Sendable {
    var watcher: ChangeWatcher?
}

private func runSQLite(_ database: String, _ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [database, sql]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
}
