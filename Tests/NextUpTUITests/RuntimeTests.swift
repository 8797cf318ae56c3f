import Testing
import NextUpCore
@testable import NextUpTUI

/// The runtime against a fake screen and an in-memory store.
@Suite struct RuntimeTests {
    /// Counts how many rows the runtime asks for.
    final class CountingBackend: TaskBackend {
        let inner: MemoryBackend
        var rowsRequested = 0
        init(_ inner: MemoryBackend) { self.inner = inner }
        func listIDs(_ q: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID]) { try inner.listIDs(q, nowMillis: nowMillis) }
        func rows(_ ids: [TaskID]) throws -> [TaskItem] { rowsRequested += ids.count; return try inner.rows(ids) }
        func historyIDs(limit: Int) throws -> [TaskID] { try inner.historyIDs(limit: limit) }
        func perform(_ w: Write, expecting: [TaskField: Version?]) throws -> (task: TaskItem, changed: Bool) { try inner.perform(w, expecting: expecting) }
        func replica() -> ReplicaID? { inner.replica() }
        func changeToken() throws -> Int? { try inner.changeToken() }
    }

    func make(_ backend: TaskBackend, width: Int = 80, height: Int = 24) -> (AppRuntime, FakeScreen) {
        let screen = FakeScreen(width: width, height: height)
        let rt = AppRuntime(state: AppState(), backend: backend, screen: screen, clock: FixedClock(millis: Fixture.now))
        rt.start()
        return (rt, screen)
    }

    @Test func firstScreenShowsBothLists() {
        let backend = MemoryBackend()
        backend.add("Backlog task")
        backend.add("Today's task", nextUp: true)
        let (_, screen) = make(backend)
        let text = screen.lastFrame!.text.joined(separator: "\n")
        #expect(text.contains("Backlog task") && text.contains("Today's task"))
    }

    @Test func editingKeysWriteToTheStoreAndUndoWritesBack() throws {
        let backend = MemoryBackend()
        let id = backend.add("Write report")
        let (rt, _) = make(backend)
        rt.handle(keys: [.char("u"), .char("i"), .char("c")])
        #expect(backend.tasks[id]?.urgency == .urgent)
        #expect(backend.tasks[id]?.importance == .low)
        #expect(backend.tasks[id]?.category == "Essentials")
        rt.handle(keys: [.char("d")] + "45m".map { .char($0) } + [.enter])
        #expect(backend.tasks[id]?.duration?.minutes == 45)
        rt.handle(keys: [.char("n")])
        #expect(backend.tasks[id]?.isNextUp == true)
        rt.handle(keys: [.char("z"), .char("z")])
        #expect(backend.tasks[id]?.isNextUp == false)
        #expect(backend.tasks[id]?.duration == nil)
        #expect(backend.tasks[id]?.category == "Essentials")
        rt.handle(keys: [.char("x")])
        #expect(backend.tasks[id]?.isDone == true)
        #expect(rt.state.backlog.ids == [id], "a task done in this session stays listed")
        rt.handle(keys: [.char("x")])
        #expect(backend.tasks[id]?.isDone == false)
        rt.handle(keys: [.char("D")])
        #expect(backend.tasks[id]?.deleted == true)
        #expect(rt.state.backlog.ids.isEmpty)
        rt.handle(keys: [.char("z")])
        #expect(backend.tasks[id]?.deleted == false)
        #expect(rt.state.backlog.selected == id)
    }

    @Test func addingSelectsTheNewTask() {
        let backend = MemoryBackend()
        backend.add("Old")
        let (rt, _) = make(backend)
        rt.handle(keys: [.char("a")] + "Brand new".map { .char($0) } + [.enter])
        let new = backend.tasks.values.first { $0.title == "Brand new" }!
        #expect(rt.state.selectedTask?.id == new.id)
    }

    @Test func anOutsideChangeReloadsAndHighlightsWithoutAKey() {
        let backend = MemoryBackend()
        let id = backend.add("Shared task")
        let (rt, screen) = make(backend)
        backend.edit(id, .title, .string("Renamed on the laptop"))
        let other = backend.add("Added by another process")
        rt.handle([.storeChanged])
        let text = screen.lastFrame!.text.joined(separator: "\n")
        #expect(text.contains("Renamed on the laptop") && text.contains("Added by another process"))
        #expect(Set(rt.state.highlights.keys) == [id, other])
        #expect(screen.lastFrame!.lines.contains { $0.spans.contains { $0.style == .changed } })
    }

    @Test func aTickReadsTheStoreOnlyWhileTheStoreFolderCannotBeWatched() {
        let backend = MemoryBackend()
        let id = backend.add("Shared task")
        let (rt, screen) = make(backend)
        backend.edit(id, .title, .string("Changed elsewhere"))
        rt.handle([.tick])
        #expect(!screen.lastFrame!.text.joined().contains("Changed elsewhere"), "a watched store is not polled")
        rt.handle([.watchProblem("watching for changes failed (poll: Bad file descriptor)")])
        #expect(screen.lastFrame!.text.joined().contains("watching for changes failed"))
        rt.handle([.tick])
        #expect(screen.lastFrame!.text.joined().contains("Changed elsewhere"))
        backend.edit(id, .title, .string("Changed again"))
        rt.handle([.watchProblem(nil), .tick])
        #expect(!screen.lastFrame!.text.joined().contains("Changed again"), "watching again: ticks stop polling")
    }

    /// A clock the test moves by hand.
    final class SteppingClock: PhysicalClock, @unchecked Sendable {
        var millis = Fixture.now
        func nowMillis() -> Int64 { millis }
    }

    /// A writer's first file event (opening the store, a new WAL's header)
    /// wakes the watcher before its commit, which may follow a sync to disk:
    /// a store change that shows nothing yet is read again every moment until
    /// it shows, not only at the watcher's next signal.
    @Test func aStoreChangeThatShowsNothingYetIsReadAgainUntilItShows() {
        let backend = MemoryBackend()
        let id = backend.add("Shared task")
        let clock = SteppingClock()
        let screen = FakeScreen(width: 80, height: 24)
        let rt = AppRuntime(state: AppState(), backend: backend, screen: screen, clock: clock)
        rt.start()
        rt.handle([.storeChanged])
        for _ in 0..<3 {
            #expect(rt.nextDeadline <= Int(AppRuntime.recheckMillis))
            clock.millis += AppRuntime.recheckMillis
            rt.handle([.tick])
        }
        backend.edit(id, .title, .string("Committed a moment later"))
        clock.millis += AppRuntime.recheckMillis - 1
        rt.handle([.tick])
        #expect(!screen.lastFrame!.text.joined().contains("Committed a moment later"), "not before the moment is up")
        clock.millis += 1
        rt.handle([.tick])
        #expect(screen.lastFrame!.text.joined().contains("Committed a moment later"))
        #expect(rt.nextDeadline > Int(AppRuntime.recheckMillis), "shown: no more reading")
    }

    @Test func aStoreChangeThatNeverShowsIsReadAgainOnlyForAWhile() {
        let backend = CountingBackend(MemoryBackend())
        backend.inner.add("One")
        let clock = SteppingClock()
        let rt = AppRuntime(state: AppState(), backend: backend, screen: FakeScreen(width: 80, height: 24), clock: clock)
        rt.start()
        rt.handle([.storeChanged])
        var reads = 0
        while rt.nextDeadline <= Int(AppRuntime.recheckMillis), reads < 1_000 {
            clock.millis += AppRuntime.recheckMillis
            rt.handle([.tick])
            reads += 1
        }
        #expect(reads == Int(AppRuntime.recheckForMillis / AppRuntime.recheckMillis))
        #expect(backend.rowsRequested == 1, "nothing moved: no reload")
    }

    @Test func nothingChangedMeansNoReload() {
        let backend = CountingBackend(MemoryBackend())
        backend.inner.add("One")
        let (rt, _) = make(backend)
        let before = backend.rowsRequested
        rt.handle([.storeChanged, .tick, .peerFolderChanged])
        #expect(backend.rowsRequested == before)
    }

    @Test func storeErrorsShowInTheStatusLineAndTheAppCarriesOn() {
        let backend = MemoryBackend()
        backend.add("Task")
        let (rt, screen) = make(backend)
        backend.failure = "database is locked"
        rt.handle(keys: [.char("u")])
        #expect(!rt.state.quitting)
        #expect(screen.lastFrame!.text.joined().contains("database is locked"))
        backend.failure = nil
        rt.handle(keys: [.char("u")])
        #expect(backend.tasks.values.first?.urgency == .urgent)
    }

    @Test func onlyTheVisibleRowsAreRead() {
        let inner = MemoryBackend()
        for i in 0..<3_000 { inner.add("Task \(i)") }
        let backend = CountingBackend(inner)
        let (rt, _) = make(backend)
        #expect(backend.rowsRequested < 60)
        rt.handle(keys: [.char("G")])
        #expect(backend.rowsRequested < 120)
        #expect(rt.state.rows[rt.state.backlog.ids.last!] != nil)
    }

    @Test func resizeRedrawsAtTheNewSize() {
        let backend = MemoryBackend()
        backend.add("Task")
        let (rt, screen) = make(backend)
        rt.handle(keys: [.char("e")])
        screen.width = 60
        screen.height = 20
        rt.handle(keys: [.resize])
        #expect(screen.lastFrame!.lines.count == 20)
        #expect(rt.state.prompt != nil)
        screen.width = 20
        screen.height = 5
        rt.handle(keys: [.resize])
        #expect(screen.lastFrame!.text.joined().contains("small"))
    }
}

extension RuntimeTests {
    @Test func keysTypedInOneBurstEachSeeTheListTheLastOneLeft() {
        let backend = MemoryBackend()
        let first = backend.add("First", nextUp: true)
        let second = backend.add("Second", nextUp: true)
        let third = backend.add("Third", nextUp: true)
        let (rt, _) = make(backend)
        rt.handle(keys: [.tab, .char("J"), .char("J")])
        #expect(rt.state.nextUp.ids == [second, third, first])
        rt.handle(keys: [.char("K"), .char("K")])
        #expect(rt.state.nextUp.ids == [first, second, third])
    }

    /// A sync worker that writes through the app's own connection: the change
    /// token does not move, only its signal count does.
    final class FakeSync: SyncSource {
        var requests = 0
        var status = SyncDisplay(enabled: true, lastSuccessMillis: Fixture.now - 4_000, peers: 2)
        func start(post: @escaping @Sendable (LoopEvent) -> Void) throws {}
        func display() -> SyncDisplay { status }
        func requestSync() { requests += 1 }
        func stop() {}
    }

    @Test func aSyncSignalReloadsEvenWhenTheChangeTokenStandsStill() throws {
        let backend = MemoryBackend()
        let id = backend.add("Before sync")
        let sync = FakeSync()
        let screen = FakeScreen()
        let frozen = TokenFrozen(backend, token: 1)
        let rt = AppRuntime(state: AppState(), backend: frozen, screen: screen, sync: sync, clock: FixedClock(millis: Fixture.now))
        rt.start()
        #expect(screen.lastFrame!.text.last!.contains("synced 4s ago · 2 peers"))
        backend.edit(id, .title, .string("Merged from the laptop"))
        rt.handle([.storeChanged, .syncFinished(changedStore: false)])
        #expect(!screen.lastFrame!.text.joined().contains("Merged from the laptop"), "nothing merged, same token: no reload")
        rt.handle([.syncFinished(changedStore: true)])
        #expect(screen.lastFrame!.text.joined().contains("Merged from the laptop"))
        rt.handle(keys: [.char("r")])
        #expect(sync.requests == 1)
    }

    final class TokenFrozen: TaskBackend {
        let inner: MemoryBackend
        let token: Int?
        init(_ inner: MemoryBackend, token: Int?) { self.inner = inner; self.token = token }
        func listIDs(_ q: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID]) { try inner.listIDs(q, nowMillis: nowMillis) }
        func rows(_ ids: [TaskID]) throws -> [TaskItem] { try inner.rows(ids) }
        func historyIDs(limit: Int) throws -> [TaskID] { try inner.historyIDs(limit: limit) }
        func perform(_ w: Write, expecting: [TaskField: Version?]) throws -> (task: TaskItem, changed: Bool) { try inner.perform(w, expecting: expecting) }
        func replica() -> ReplicaID? { inner.replica() }
        func changeToken() throws -> Int? { token }
    }
}
