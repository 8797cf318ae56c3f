import NextUpCore
import Testing
@testable import NextUpTUI

/// Issue 13's history: done tasks leave the lists after their grace, the
/// header counts open tasks only (as `nextup count`), and the history view
/// lists done and deleted tasks where x reopens and D restores.
@Suite struct HistoryTests {
    @Test func aDoneTaskLeavesAfterItsGraceAndIsNotCounted() {
        let a = Fixture.task("Alpha"), b = Fixture.task("Beta")
        var s = Fixture.state([a, b])
        s.backlog.selected = a.id
        _ = s.send(Fixture.keys("x"))
        #expect(s.keepDone == [a.id])
        var done = a
        done.completedAt = Fixture.now
        _ = s.send(.rowsLoaded([done]))
        #expect(s.openCount(.backlog) == 1, "the ✓ row is not counted")
        #expect(MainView.frame(s).text[0].contains("Backlog 1"))
        #expect(s.send(.tick(nowMillis: Fixture.now + AppState.keepDoneMillis - 1)).isEmpty)
        #expect(s.send(.tick(nowMillis: Fixture.now + AppState.keepDoneMillis)) == [.reload])
        #expect(s.keepDone.isEmpty && s.query.keepDone.isEmpty)
    }

    @Test func theHistoryReopensDoneAndRestoresDeletedTasksConditionally() throws {
        let backend = MemoryBackend()
        let done = backend.add("Done one")
        let gone = backend.add("Gone one")
        _ = try backend.perform(.complete(done), expecting: [:])
        _ = try backend.perform(.delete(gone), expecting: [:])
        #expect(try backend.historyIDs(limit: 10) == [gone, done], "most recent first")
        let (rt, screen) = (AppRuntime(state: AppState(), backend: backend, screen: FakeScreen()), 0)
        _ = screen
        rt.start()
        rt.handle(keys: [.char("H")])
        #expect(rt.state.history?.ids == [gone, done])
        rt.handle(keys: [.char("x")])
        #expect(rt.state.message?.text.contains("is deleted — D restores it") == true)
        rt.handle(keys: [.char("D")])
        #expect(backend.tasks[gone]?.deleted == false)
        #expect(rt.state.history?.ids == [done])
        rt.handle(keys: [.char("x")])
        #expect(backend.tasks[done]?.isDone == false)
        #expect(rt.state.history?.ids == [])
        rt.handle(keys: [.escape])
        #expect(rt.state.history == nil)
        #expect(Set(rt.state.backlog.ids) == [done, gone])
        // z takes the restore back, like any edit.
        rt.handle(keys: [.char("z"), .char("z")])
        #expect(backend.tasks[gone]?.deleted == true)
    }
}

extension HistoryTests {
    @Test func theDetailsOfAHistoryRowTakeTheHistoryKeys() throws {
        let backend = MemoryBackend()
        let done = backend.add("Done one")
        _ = try backend.perform(.complete(done), expecting: [:])
        let rt = AppRuntime(state: AppState(), backend: backend, screen: FakeScreen())
        rt.start()
        rt.handle(keys: [.char("H"), .enter])
        #expect(rt.state.showDetail && rt.state.selectedTask?.id == done)
        #expect(MainView.frame(rt.state).text.contains { $0.contains("list       done") })
        rt.handle(keys: [.char("x")])
        #expect(backend.tasks[done]?.isDone == false)
    }
}

/// Issue 13's planning by duration: the Next Up header adds up its durations.
@Suite struct NextUpTotalTests {
    @Test func theNextUpHeaderShowsThePlannedTimeWithUnsetOnesAsQuestionMarks() {
        let a = Fixture.task("A", minutes: 90, nextUp: "a"), b = Fixture.task("B", minutes: 110, nextUp: "b")
        let c = Fixture.task("C", nextUp: "c"), d = Fixture.task("D", minutes: 600)
        var s = Fixture.state([a, b, c, d])
        #expect(s.nextUpTotal == "3h20m (+1 ?)")
        #expect(MainView.frame(s).text[1].contains("Next Up · 3 · 3h20m (+1 ?)"))
        s = Fixture.state([c])
        #expect(s.nextUpTotal == "1 ?")
        s = Fixture.state([a, b])
        #expect(MainView.frame(s).text[1].contains("Next Up · 2 · 3h20m "))
        // A row not loaded yet: no total rather than a wrong one.
        s.rows[a.id] = nil
        #expect(s.nextUpTotal == nil)
    }
}
