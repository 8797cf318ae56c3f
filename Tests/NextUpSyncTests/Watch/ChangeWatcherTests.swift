import Foundation
import Testing
@testable import NextUpSync

@Suite struct ChangeWatcherTests {
    /// Appends in place (no temporary file, unlike `FileManager.createFile`).
    private func append(_ text: String, to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
    }

    @Test func signalsAWriteInAWatchedFolder() throws {
        let temp = try TemporaryFolder("watch")
        let calls = CallCounter()
        let watcher = ChangeWatcher(watching: [temp.url]) { calls.increment() }
        try watcher.start()
        defer { watcher.stop() }
        try append("hello\n", to: temp.path("a.txt"))
        #expect(eventually { calls.value >= 1 })
    }

    @Test func aBurstOfWritesIsCollapsed() throws {
        let temp = try TemporaryFolder("watch")
        let calls = CallCounter()
        let watcher = ChangeWatcher(watching: [temp.url]) { calls.increment() }
        try watcher.start()
        defer { watcher.stop() }
        for i in 0..<200 { try append("line \(i)\n", to: temp.path("a.txt")) }
        #expect(eventually { calls.value >= 1 })
        #expect(calls.value < 200)
    }

    @Test func seesAnotherProcessCommitToASQLiteStore() throws {
        let temp = try TemporaryFolder("watch")
        let database = temp.path("store.sqlite").path
        try runSQLite(database, "PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        let calls = CallCounter()
        let watcher = ChangeWatcher(watching: [temp.url]) { calls.increment() }
        try watcher.start()
        defer { watcher.stop() }
        // Let the start-up settle; then a commit by another process.
        usleep(300_000)
        let before = calls.value
        try runSQLite(database, "PRAGMA journal_mode=WAL; INSERT INTO t VALUES (2);")
        #expect(eventually { calls.value > before })
    }

    @Test func ignoredNamesDoNotSignal() throws {
        let temp = try TemporaryFolder("watch")
        let calls = CallCounter()
        let watcher = ChangeWatcher(watching: [temp.url], ignoring: { $0.hasSuffix(".lock") }) { calls.increment() }
        try watcher.start()
        defer { watcher.stop() }
        for i in 0..<20 { try append("\(i)", to: temp.path("sync.lock")) }
        usleep(600_000)
        #expect(calls.value == 0)
        try append("x", to: temp.path("real.log"))
        #expect(eventually { calls.value == 1 })
    }

    @Test func aPolledFolderIsNoticedWithoutInotify() throws {
        let temp = try TemporaryFolder("watch")
        let calls = CallCounter()
        // Not watched with inotify at all: only the stat poll can see this.
        let watcher = ChangeWatcher(watching: [], polling: [temp.url], pollIntervalMillis: 100) { calls.increment() }
        try watcher.start()
        defer { watcher.stop() }
        usleep(300_000)
        #expect(calls.value == 0)
        try append("from another host\n", to: temp.path("nextup-peer.log"))
        #expect(eventually { calls.value >= 1 })
    }

    @Test func aFolderThatAppearsLaterIsWatched() throws {
        let temp = try TemporaryFolder("watch")
        let later = temp.path("later")
        let calls = CallCounter()
        let watcher = ChangeWatcher(watching: [later], pollIntervalMillis: 100) { calls.increment() }
        try watcher.start()
        defer { watcher.stop() }
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: false)
        usleep(400_000)   // at least one poll tick picks the new folder up
        let before = calls.value
        try append("x", to: later.appendingPathComponent("f"))
        #expect(eventually { calls.value > before })
    }

    @Test func triggerSignalsAndStopEndsCallbacks() throws {
        let temp = try TemporaryFolder("watch")
        let calls = CallCounter()
        let watcher = ChangeWatcher(watching: [temp.url]) { calls.increment() }
        try watcher.start()
        watcher.trigger()
        #expect(eventually { calls.value == 1 })
        watcher.stop()
        let after = calls.value
        try append("x", to: temp.path("a"))
        watcher.trigger()
        usleep(600_000)
        #expect(calls.value == after)
    }

    @Test func stopFromInsideTheCallbackDoesNotDeadlock() throws {
        let temp = try TemporaryFolder("watch")
        let calls = CallCounter()
        let box = WatcherBox()
        let watcher = ChangeWatcher(watching: [temp.url]) {
            calls.increment()
            box.watcher?.stop()
        }
        box.watcher = watcher
        try watcher.start()
        watcher.trigger()
        #expect(eventually { calls.value == 1 })
        try append("x", to: temp.path("a"))
        usleep(500_000)
        #expect(calls.value == 1)
        watcher.stop()
    }
}

private final class WatcherBox: @unchecked Sendable {
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
