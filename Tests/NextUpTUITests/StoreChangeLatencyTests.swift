import Foundation
import Glibc
import Synchronization
import Testing
import NextUpCore
import NextUpSync
import NextUpTestSupport
@testable import NextUpTUI

/// Another process's change on this screen, from its file event to the
/// reload: the real watcher (real inotify, its time moved by hand) posting to
/// the loop's inbox, and the runtime handling what the loop takes from it.
/// Nothing sleeps: ``ChangeWatcher/clockMoved()`` returns once the watcher
/// has handled every event queued before it.
@Suite struct StoreChangeLatencyTests {
    /// Timer time the test moves by hand.
    final class HandClock: MonotonicClock, Sendable {
        private let now = Mutex<Int64>(1_000_000)
        func monotonicMillis() -> Int64 { now.withLock { $0 } }
        func advance(_ millis: Int64) { now.withLock { $0 += millis } }
    }

    /// Counts the runtime's reloads (each reads the lists once).
    final class ReloadCounting: TaskBackend {
        let inner = MemoryBackend()
        var reloads = 0
        /// Called as each reload starts to read the lists.
        var onReload: () -> Void = {}
        func listIDs(_ q: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID]) {
            reloads += 1
            onReload()
            return try inner.listIDs(q, nowMillis: nowMillis)
        }
        func rows(_ ids: [TaskID]) throws -> [TaskItem] { try inner.rows(ids) }
        func historyIDs(limit: Int) throws -> [TaskID] { try inner.historyIDs(limit: limit) }
        func perform(_ w: Write, expecting: [TaskField: Version?]) throws -> (task: TaskItem, changed: Bool) { try inner.perform(w, expecting: expecting) }
        func replica() -> ReplicaID? { inner.replica() }
        func changeToken() throws -> Int? { try inner.changeToken() }
    }

    /// One write to the watched file: one kernel event, queued when this returns.
    private func touch(_ url: URL) {
        let fd = open(url.path, O_WRONLY | O_APPEND)
        #expect(fd >= 0)
        defer { close(fd) }
        let byte: [UInt8] = [10]
        #expect(write(fd, byte, 1) == 1)
    }

    @Test func theFirstChangeReloadsAtOnceAndAStormReloadsABoundedNumberOfTimes() throws {
        let temp = TemporaryFolder()
        let wal = temp.path("nextup.sqlite-wal")
        try Data().write(to: wal)
        let backend = ReloadCounting()
        let id = backend.inner.add("Shared task")
        let inbox = try LoopInbox()
        let clock = HandClock()
        let watcher = ChangeWatcher(watching: [temp.url], clock: clock, onChange: { _ in inbox.post(.storeChanged) })
        try watcher.start()
        defer { watcher.stop() }
        let screen = FakeScreen(width: 80, height: 24)
        let rt = AppRuntime(state: AppState(), backend: backend, screen: screen, clock: FixedClock(millis: Fixture.now))
        rt.start()
        let started = backend.reloads

        // One change, and the watcher's clock does not move: it is on screen.
        backend.inner.edit(id, .title, .string("Changed elsewhere"))
        touch(wal)
        watcher.clockMoved()
        rt.handle(inbox.take())
        #expect(backend.reloads == started + 1, "the first event of a burst reloads at once")
        #expect(screen.lastFrame!.text.joined().contains("Changed elsewhere"))

        // A storm: a change every 10 ms for 2 s, the loop taking what was
        // posted after each. Coalesced: a reload at most once per maximum
        // delay (1 s) while it lasts, and one at its end.
        let stormMillis: Int64 = 2_000, every: Int64 = 10
        for i in 0..<Int(stormMillis / every) {
            clock.advance(every)
            backend.inner.edit(id, .title, .string("Storm \(i)"))
            touch(wal)
            watcher.clockMoved()
            rt.handle(inbox.take())
        }
        clock.advance(1_000)
        watcher.clockMoved()
        rt.handle(inbox.take())
        let stormReloads = backend.reloads - started - 1
        #expect(stormReloads >= 1 && stormReloads <= Int(stormMillis / 1_000) + 1, "\(stormReloads) reloads for 200 changes")
        #expect(screen.lastFrame!.text.joined().contains("Storm \(stormMillis / every - 1)"), "the storm's last change shows")
    }

    /// Reading and ranking the lists takes long on a large store; a change to
    /// a row on screen is drawn before that, from a read of the rows on
    /// screen alone, and highlighted — for another process's change and for
    /// one the sync engine merged.
    @Test func aChangeToARowOnScreenIsDrawnBeforeTheListsAreReadAgain() throws {
        let backend = ReloadCounting()
        let id = backend.inner.add("Shared task")
        let other = backend.inner.add("Other task")
        let screen = FakeScreen(width: 80, height: 24)
        var shownAtReload: [String] = []
        backend.onReload = { shownAtReload.append(screen.lastFrame?.text.joined() ?? "") }
        let rt = AppRuntime(state: AppState(), backend: backend, screen: screen, clock: FixedClock(millis: Fixture.now))
        rt.start()

        backend.inner.edit(id, .title, .string("Changed elsewhere"))
        shownAtReload = []
        rt.handle([.storeChanged])
        #expect(shownAtReload.count == 1)
        #expect(shownAtReload.first?.contains("Changed elsewhere") == true, "drawn before the lists were read")
        #expect(rt.state.highlights[id] != nil)
        #expect(rt.state.highlights[other] == nil)
        #expect(screen.lastFrame!.text.joined().contains("Changed elsewhere"))

        backend.inner.edit(other, .title, .string("Merged from a peer"))
        shownAtReload = []
        rt.handle([.syncFinished(changedStore: true)])
        #expect(shownAtReload.first?.contains("Merged from a peer") == true, "drawn before the lists were read")
        #expect(rt.state.highlights[other] != nil)
    }
}
