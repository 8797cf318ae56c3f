import Testing
import NextUpCore
@testable import NextUpTUI

@Suite struct ReducerTests {
    let a = Fixture.task("Alpha", importance: .high, created: Fixture.now - 3_000)
    let b = Fixture.task("Bravo", importance: .medium, created: Fixture.now - 2_000)
    let c = Fixture.task("Charlie", importance: .low, created: Fixture.now - 1_000)
    let n1 = Fixture.task("Next one", nextUp: "a")
    let n2 = Fixture.task("Next two", nextUp: "b")
    let n3 = Fixture.task("Next three", nextUp: "c")

    var state: AppState { Fixture.state([a, b, c, n1, n2, n3]) }

    @Test func movingClampsAndTabSwitchesPanes() {
        var s = state
        #expect(s.focus == .backlog)
        #expect(s.backlog.ids == [a.id, b.id, c.id])
        _ = s.send(Fixture.keys("jjjj"))
        #expect(s.backlog.selected == c.id)
        _ = s.send(Fixture.keys("g"))
        #expect(s.backlog.selected == a.id)
        _ = s.send(Fixture.keys("G"))
        #expect(s.backlog.selected == c.id)
        _ = s.send(.key(.tab), .key(.down))
        #expect(s.focus == .nextUp)
        #expect(s.nextUp.selected == n2.id)
        #expect(s.backlog.selected == c.id)
    }

    @Test func urgencyCyclesUnsetUrgentNotUrgentUnsetAndRemembersTheOldValue() {
        var s = state
        let effects = s.send(Fixture.keys("u"))
        #expect(effects == [Fixture.keyEdit(.setUrgency(a.id, .urgent), of: a, inverse: .setUrgency(a.id, nil), "urgency of “Alpha”")])
        var t = a
        t.urgency = .urgent
        s.rows[a.id] = t
        guard case .write(.setUrgency(_, .notUrgent), _, _)? = s.send(Fixture.keys("u")).first else {
            Issue.record("urgent should go to not urgent"); return
        }
        t.urgency = .notUrgent
        s.rows[a.id] = t
        guard case .write(.setUrgency(_, nil), _, _)? = s.send(Fixture.keys("u")).first else {
            Issue.record("not urgent should go to unset"); return
        }
    }

    @Test func importanceCyclesAndCategoryWalksTheConfiguredList() {
        var s = state
        s.categories = ["Home", "Work"]
        guard case .write(.setImportance(a.id, nil), _, _)? = s.send(Fixture.keys("i")).first else {
            Issue.record("3 should go to unset"); return
        }
        #expect(s.send(Fixture.keys("c")).first == Fixture.keyEdit(.setCategory(a.id, "Home"), of: a, inverse: .setCategory(a.id, nil), "category of “Alpha”"))
        var t = a
        t.category = "work"
        s.rows[a.id] = t
        guard case .write(.setCategory(_, nil), _, _)? = s.send(Fixture.keys("c")).first else {
            Issue.record("the last category should go to unset"); return
        }
    }

    @Test func nextUpToggleAndReorderCarryTheirInverse() {
        var s = state
        #expect(s.send(Fixture.keys("n")) == [Fixture.keyEdit(.placeInNextUp(a.id, .end), of: a, inverse: .removeFromNextUp(a.id), "move to Next Up of “Alpha”")])
        _ = s.send(.key(.tab), .key(.char("j")))
        #expect(s.send(Fixture.keys("J")).first == Fixture.keyEdit(.placeInNextUp(n2.id, .after(n3.id)), of: n2, inverse: .placeInNextUp(n2.id, .between(after: n1.id, before: n3.id)), "reorder of “Next two”"))
        #expect(s.send(Fixture.keys("K")).first == Fixture.keyEdit(.placeInNextUp(n2.id, .before(n1.id)), of: n2, inverse: .placeInNextUp(n2.id, .between(after: n1.id, before: n3.id)), "reorder of “Next two”"))
        guard case .write(.removeFromNextUp(n2.id), _, let undo)? = s.send(Fixture.keys("n")).first else {
            Issue.record("n in Next Up moves to the backlog"); return
        }
        #expect(undo?.inverse == .placeInNextUp(n2.id, .between(after: n1.id, before: n3.id)))
    }

    @Test func reorderingOutsideNextUpExplainsItself() {
        var s = state
        #expect(s.send(Fixture.keys("J")).isEmpty)
        #expect(s.message?.text.contains("Next Up") == true)
    }

    @Test func doneKeepsTheTaskListedAndDeleteIsUndoable() {
        var s = state
        let done = s.send(Fixture.keys("x"))
        #expect(done.first == Fixture.keyEdit(.complete(a.id), of: a, inverse: .reopen(a.id), "done of “Alpha”"))
        #expect(s.query.keepDone == [a.id])
        #expect(s.send(.key(.char(" "))).count == 1)
        #expect(s.send(Fixture.keys("D")) == [Fixture.keyEdit(.delete(a.id), of: a, inverse: .restore(a.id), "delete of “Alpha”")])
    }

    @Test func undoPopsThisSessionsEditsNewestFirst() {
        var s = state
        #expect(s.send(Fixture.keys("z")).isEmpty)
        #expect(s.message?.text == "nothing to undo")
        let first = UndoEntry(inverse: .setUrgency(a.id, nil), original: .setUrgency(a.id, .urgent), description: "one")
        let second = UndoEntry(inverse: .restore(b.id), original: .delete(b.id), description: "two")
        _ = s.send(.wrote(.setUrgency(a.id, .urgent), task: a.id, undo: first), .wrote(.delete(b.id), task: b.id, undo: second))
        #expect(s.send(Fixture.keys("z")) == [.undo(second)])
        #expect(s.send(Fixture.keys("z")) == [.undo(first)])
        #expect(s.undoStack.isEmpty)
    }

    @Test func anAddIsUndoneByDeletingTheNewTaskWhichGetsSelected() {
        var s = state
        let new = TaskID.make()
        _ = s.send(.wrote(.add(title: "New", toNextUp: false), task: new, undo: nil))
        #expect(s.undoStack.last?.inverse == .delete(new))
        var t = Fixture.task("New")
        t = TaskItem(id: new)
        t.title = "New"
        _ = s.send(.reloaded(Listing(nextUp: s.nextUp.ids, backlog: [new] + s.backlog.ids, rows: [t]), external: false))
        #expect(s.backlog.selected == new)
    }

    @Test func durationPromptWritesOnlyTheDurationAndKeepsBadInputOpen() {
        var s = state
        _ = s.send(Fixture.keys("d"))
        #expect(s.prompt?.kind == .duration(a.id))
        _ = s.send(Fixture.keys("soon"))
        #expect(s.send(.key(.enter)).isEmpty)
        #expect(s.prompt?.error?.contains("duration must look like") == true)
        _ = s.send(.key(.ctrl("u")))
        _ = s.send(Fixture.keys("1h30m"))
        let effects = s.send(.key(.enter))
        #expect(effects == [Fixture.promptEdit(.setDuration(a.id, try! TaskDuration(minutes: 90)), of: a, field: .duration, inverse: .setDuration(a.id, nil), "duration change")])
        #expect(s.prompt == nil)
    }

    @Test func escapeCancelsAPromptWithoutWriting() {
        var s = state
        _ = s.send(Fixture.keys("e"))
        #expect(s.prompt?.editor.text == "Alpha")
        _ = s.send(Fixture.keys("!!"))
        #expect(s.send(.key(.escape)).isEmpty)
        #expect(s.prompt == nil)
    }

    @Test func titlePromptAddPromptAndFilterPrompt() {
        var s = state
        _ = s.send(Fixture.keys("e"))
        _ = s.send(.key(.backspace), .key(.char("!")), .key(.enter))
        #expect(s.undoStack.isEmpty)
        _ = s.send(Fixture.keys("a"))
        _ = s.send(Fixture.keys("Call mum"))
        #expect(s.send(.key(.enter)) == [.write(.add(title: "Call mum", toNextUp: false), seen: [:], undo: nil)])
        _ = s.send(Fixture.keys("/"))
        _ = s.send(Fixture.keys("cat:Admin is:tbd"))
        #expect(s.send(.key(.enter)) == [.reload])
        #expect(s.filter == ListFilter(text: "", category: "Admin", tbdOnly: true))
    }

    @Test func aReloadKeepsTheSelectionOnItsTaskWhenTheListResorts() {
        var s = state
        _ = s.send(Fixture.keys("j"))
        #expect(s.backlog.selected == b.id)
        _ = s.send(.reloaded(Listing(nextUp: s.nextUp.ids, backlog: [c.id, a.id, b.id], rows: [a, b, c]), external: true))
        #expect(s.backlog.selected == b.id)
        #expect(s.backlog.selectedIndex == 2)
        _ = s.send(.reloaded(Listing(nextUp: s.nextUp.ids, backlog: [c.id, a.id], rows: [a, c]), external: true))
        #expect(s.backlog.selected == a.id, "a vanished task's row passes to the task now at that row, clamped")
    }

    @Test func outsideChangesAreHighlightedForAboutTwoSecondsButOwnWritesAreNot() {
        var s = state
        var changed = b
        changed.urgency = .urgent
        changed.versions[.urgency] = Version(timestamp: HybridTimestamp(rawValue: 99), replica: Fixture.replica)
        let fresh = Fixture.task("Delta")
        _ = s.send(.reloaded(Listing(nextUp: s.nextUp.ids, backlog: [changed.id, fresh.id, a.id, c.id], rows: [changed, fresh, a, c]), external: true))
        #expect(Set(s.highlights.keys) == [b.id, fresh.id])
        _ = s.send(.tick(nowMillis: Fixture.now + AppState.highlightMillis + 1))
        #expect(s.highlights.isEmpty)

        var mine = a
        mine.urgency = .urgent
        mine.versions[.urgency] = Version(timestamp: HybridTimestamp(rawValue: 100), replica: Fixture.replica)
        _ = s.send(.wrote(.setUrgency(a.id, .urgent), task: a.id, undo: nil))
        _ = s.send(.reloaded(Listing(nextUp: s.nextUp.ids, backlog: s.backlog.ids, rows: [mine, changed, fresh, c]), external: true))
        #expect(s.highlights[a.id] == nil)
    }

    @Test func anOpenPromptSurvivesReloadsAndResizes() {
        var s = state
        _ = s.send(Fixture.keys("e"))
        _ = s.send(Fixture.keys(" edited"))
        var remote = a
        remote.title = "Alpha renamed elsewhere"
        remote.importance = .low
        _ = s.send(.reloaded(Listing(nextUp: s.nextUp.ids, backlog: s.backlog.ids, rows: [remote, b, c]), external: true))
        _ = s.send(.resize(cols: 60, rows: 20), .resize(cols: 100, rows: 30))
        #expect(s.prompt?.editor.text == "Alpha edited")
        let effects = s.send(.key(.enter))
        #expect(effects == [Fixture.promptEdit(.setTitle(a.id, "Alpha edited"), of: a, field: .title, inverse: .setTitle(a.id, "Alpha"), "title change")])
    }

    @Test func helpOverlayClosesOnAnyKeyWithoutActing() {
        var s = state
        _ = s.send(Fixture.keys("?"))
        #expect(s.showHelp)
        #expect(s.send(Fixture.keys("q")).isEmpty)
        #expect(!s.showHelp && !s.quitting)
        #expect(s.send(Fixture.keys("q")) == [.quit])
    }

    @Test func belowTheMinimumSizeOnlyQuitWorks() {
        var s = state
        _ = s.send(.resize(cols: 30, rows: 8))
        #expect(s.send(Fixture.keys("u")).isEmpty)
        #expect(s.send(Fixture.keys("q")) == [.quit])
    }

    @Test func sortCyclesAndSyncNeedsAPeer() {
        var s = state
        #expect(s.send(Fixture.keys("s")) == [.reload])
        #expect(s.sort == .due)
        #expect(s.send(Fixture.keys("r")).isEmpty)
        #expect(s.message?.text.contains("no peer folder") == true)
        s.sync = SyncDisplay(enabled: true)
        #expect(s.send(Fixture.keys("r")) == [.syncNow])
    }

    @Test func scrollFollowsTheSelectionInALongList() {
        let many = (0..<500).map { Fixture.task("Task \($0)", created: Fixture.now - Int64($0)) }
        var s = Fixture.state(many)
        _ = s.send(.key(.char("G")))
        let height = s.layout.backlogRows
        #expect(s.backlog.top == 500 - height)
        _ = s.send(.key(.char("g")))
        #expect(s.backlog.top == 0)
        _ = s.send(.key(.pageDown))
        #expect(s.backlog.selectedIndex == height)
    }
}
