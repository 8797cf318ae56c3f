import NextUpTestSupport
import Foundation
import Testing
import NextUpCore
import NextUpStore
@testable import NextUpTUI

/// The lists read again in slices after a large change, one slice between
/// keys: the result is the lists read whole, the screen keeps the last whole
/// lists meanwhile and says it is reading, and a key acts on the row shown.
@Suite struct SlicedReadTests {
    /// Writes of every kind land between the slices; the last slice's
    /// result is the lists read whole at the moment the first was ranked.
    @Test(arguments: 0..<6)
    func aReadInSlicesEndsAsTheListsReadWhole(seed: UInt64) throws {
        var rng = SeededRandom(seed: 700 + seed)
        let folder = TemporaryFolder()
        let store = try TaskStore.open(StoreLocation(folder: folder.url), clock: FixedClock(millis: Fixture.now))
        let writes = ListUpdateTests()
        var ids: [TaskID] = []
        for i in 0..<60 { ids.append(try store.add(TaskDraft(title: "task \(i)")).id) }
        for id in ids { try writes.randomLocalWrite(store, id, &rng) }
        let today = DueDate(epochDay: Fixture.now / 86_400_000)
        let sort = BacklogSort.allCases[Int(seed) % BacklogSort.allCases.count]
        let filter = try ListFilter.parse(["", "is:tbd", "+home", "due:week", "is:urgent", "is:later"][Int(seed)])
        let narrowing = TaskStore.ListNarrowing(filter, today: today)
        var keep: Set<TaskID> = []
        let first = try store.lists(sort: sort, narrowing: narrowing, keepDone: keep, nowMillis: Fixture.now)
        // Its ranking is old: the next read starts again, in slices.
        let now = Fixture.now + TaskStore.rerankAfterMillis
        var last = first
        var slices = 0
        repeat {
            for _ in 0..<Int(rng.next() % 4) {
                let id = ids.randomElement(using: &rng)!
                if rng.chance(0.2) {
                    ids.append(try store.add(TaskDraft(title: "added meanwhile")).id)
                } else if rng.chance(0.2), let done = try store.task(id), done.isDone, !done.deleted {
                    keep.insert(id)
                } else {
                    try writes.randomLocalWrite(store, id, &rng)
                }
            }
            last = try store.lists(sort: sort, narrowing: narrowing, keepDone: keep, nowMillis: now, since: last, slice: 4)
            slices += 1
            #expect(slices < 100)
        } while !last.isComplete && slices < 100
        if filter.isEmpty { #expect(slices > 2, "a read of \(first.backlog.count) rows in slices of 4") }
        #expect(last.rankedAt == now)
        let whole = try store.lists(sort: sort, narrowing: narrowing, keepDone: keep, nowMillis: now)
        #expect(last.nextUp == whole.nextUp)
        #expect(last.backlog == whole.backlog)
        // From there, the lists are brought up to date as usual.
        _ = try store.edit(ids[0], set: [(.importance, .int(3))])
        let updated = try store.lists(sort: sort, narrowing: narrowing, keepDone: keep, nowMillis: now + 1, since: last, slice: 4)
        #expect(updated.isComplete && !updated.readWhole)
        #expect(updated.backlog == (try store.lists(sort: sort, narrowing: narrowing, keepDone: keep, nowMillis: now)).backlog)
    }

    /// A read in slices that a caller finishes without slices (a plain
    /// ``StoreBackend/listIDs(_:nowMillis:)``), or that a change of sort
    /// interrupts, gives the whole lists at once.
    @Test func aReadInSlicesIsFinishedByAWholeRead() throws {
        let folder = TemporaryFolder()
        let store = try TaskStore.open(StoreLocation(folder: folder.url), clock: FixedClock(millis: Fixture.now))
        for i in 0..<10 { _ = try store.add(TaskDraft(title: "task \(i)")) }
        let backend = StoreBackend(store: store, sliceRows: 3)
        _ = try backend.listIDs(ListQuery(), nowMillis: Fixture.now)
        let later = Fixture.now + TaskStore.rerankAfterMillis
        #expect(try backend.listIDsInSlices(ListQuery(), nowMillis: later) == nil)
        let rest = try backend.listIDs(ListQuery(), nowMillis: later)
        #expect(rest.backlog == (try store.lists(sort: .score, nowMillis: later)).backlog)
        #expect(rest.backlog.count == 10)
        #expect(try backend.listIDsInSlices(ListQuery(), nowMillis: later + TaskStore.rerankAfterMillis) == nil)
        let other = try backend.listIDsInSlices(ListQuery(sort: .due), nowMillis: later)
        #expect(other?.backlog.count == 10, "another sort is read whole")
    }

    /// Pure: while the lists are read in slices the title bar says so and
    /// keeps the counts of the lists shown; a key acts on the row under the
    /// cursor as shown; the complete lists keep the cursor on its task.
    @Test func whileReadingTheScreenSaysSoAndKeysActOnTheRowShown() {
        let a = Fixture.task("Alpha", urgency: .urgent, importance: .high)
        let b = Fixture.task("Beta")
        var s = Fixture.state([a, b])
        #expect(s.backlog.selected == a.id)
        _ = s.send(.readingLists(true))
        let title = MainView.frame(s).text.joined(separator: "\n")
        #expect(title.contains("Next Up 0 · Backlog 2 · reading…"), "\(title)")
        _ = s.send(.key(.char("j")))
        let effects = s.send(.key(.char("u")))
        guard case .write(let write, let seen, _)? = effects.first else {
            Issue.record("no write: \(effects)")
            return
        }
        #expect(write.task == b.id)
        #expect(seen == b.seen(write.fields))
        let c = Fixture.task("Arrived", urgency: .urgent, importance: .high, created: Fixture.now - 5_000)
        _ = s.send(.reloaded(Listing(nextUp: [], backlog: [c.id, a.id, b.id], rows: [a, b, c]), external: true),
                   .readingLists(false))
        #expect(s.backlog.selected == b.id)
        #expect(!MainView.frame(s).text.joined().contains("reading"))
    }

    /// The runtime against a real store: a large change (here: a ranking
    /// grown old) is read one slice per loop turn; the lists on screen stay
    /// whole meanwhile, a key writes the row it shows, and the last slice
    /// shows every task, as written meanwhile too.
    @Test func theRuntimeReadsASliceAPassAndKeepsTheListsShownUntilTheLast() throws {
        let folder = TemporaryFolder()
        let store = try TaskStore.open(StoreLocation(folder: folder.url), clock: FixedClock(millis: Fixture.now))
        let other = try TaskStore.open(StoreLocation(folder: folder.url), clock: FixedClock(millis: Fixture.now))
        for i in 0..<5 { _ = try store.add(TaskDraft(title: "old \(i)")) }
        let clock = RuntimeTests.SteppingClock()
        let screen = FakeScreen(width: 80, height: 24)
        let rt = AppRuntime(state: AppState(), backend: StoreBackend(store: store, sliceRows: 2), screen: screen, clock: clock)
        rt.start()
        let shown = rt.state.backlog.ids
        let selected = try #require(rt.state.backlog.selected)
        for i in 0..<5 { _ = try other.add(TaskDraft(title: "new \(i)")) }
        clock.millis += TaskStore.rerankAfterMillis
        rt.handle([.storeChanged])
        #expect(rt.state.readingLists)
        #expect(rt.nextDeadline == 0, "the loop goes on at once")
        #expect(rt.state.backlog.ids == shown)
        #expect(screen.lastFrame!.text.joined().contains("Backlog 5 · reading…"))
        rt.handle(keys: [.char("u")])
        #expect(try store.task(selected)?.urgency == .urgent)
        // Neither the write nor another change signal reads a slice in its
        // turn: 10 rows in slices of 2 take the first read and 5 turns.
        _ = try other.edit(shown[shown.count - 1], set: [(.importance, .int(3))])
        rt.handle([.storeChanged])
        #expect(rt.state.backlog.ids == shown)
        var turns = 0
        while rt.state.readingLists && turns < 20 {
            rt.handle([.tick])
            turns += 1
        }
        #expect(!rt.state.readingLists)
        #expect(turns == 5)
        let whole = try StoreBackend(store: store).listIDs(rt.state.query, nowMillis: clock.millis)
        #expect(rt.state.backlog.ids == whole.backlog)
        #expect(rt.state.backlog.count == 10)
        #expect(rt.state.backlog.selected == selected)
        #expect(screen.lastFrame!.text.joined().contains("Next Up 0 · Backlog 10 "))
        #expect(rt.nextDeadline > 0)
    }
}
