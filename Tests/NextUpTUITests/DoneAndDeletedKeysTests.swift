import Testing
import NextUpCore
@testable import NextUpTUI

/// Keys that make no sense on a done or deleted task say so and change
/// nothing (issue 9, reproduction 6: `n` on a ✓ row moved a done task into Next Up).
@Suite struct DoneAndDeletedKeysTests {
    let done = Fixture.task("Finished", done: true)
    let open = Fixture.task("Open")

    func state(_ tasks: [TaskItem], keepDone: Set<TaskID>) -> AppState {
        var s = AppState(width: 80, height: 24, nowMillis: Fixture.now)
        s.keepDone = keepDone
        _ = Reducer.reduce(&s, .reloaded(Listing(nextUp: [], backlog: tasks.map(\.id), rows: tasks), external: false))
        return s
    }

    @Test(arguments: ["n", "J", "K"])
    func aDoneTaskDoesNotMoveIntoOrWithinNextUp(key: String) {
        var s = state([done, open], keepDone: [done.id])
        #expect(s.backlog.selected == done.id)
        #expect(s.send(Fixture.keys(key)).isEmpty)
        #expect(s.message?.text == "“Finished” is done; only open tasks go into Next Up (x reopens it)")
    }

    @Test func aDoneTaskCanStillBeReopenedAndTriaged() {
        var s = state([done, open], keepDone: [done.id])
        #expect(s.send(Fixture.keys("x")).first == Fixture.keyEdit(.reopen(done.id), of: done, inverse: .complete(done.id), "reopen of “Finished”"))
        #expect(s.send(Fixture.keys("u")).count == 1)
    }

    @Test(arguments: ["n", "u", "i", "c", "x", "e", "d", "C", " "])
    func aDeletedTaskTakesNoEdit(key: String) {
        var gone = Fixture.task("Gone")
        gone.deleted = true
        var s = state([gone], keepDone: [])
        #expect(s.send(Fixture.keys(key)).isEmpty, "\(key)")
        #expect(s.prompt == nil)
        #expect(s.message?.text == "“Gone” is deleted; nothing changed (nextup restore brings it back)")
    }
}
