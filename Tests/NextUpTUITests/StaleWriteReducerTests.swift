import NextUpCore
import Testing
@testable import NextUpTUI

/// The reducer's side of issue 9: what a stale write, a conflict, redo, a
/// paste and a signal do to the state, without a store.
@Suite struct StaleWriteReducerTests {
    let a = Fixture.task("Alpha", importance: .high)
    let mine = ReplicaID.make(), theirs = ReplicaID.make()

    var state: AppState {
        var s = Fixture.state([a])
        s.replica = mine
        return s
    }

    func stale(_ field: TaskField, _ value: FieldValue, by replica: ReplicaID) -> StaleWrite {
        StaleWrite(task: a.id, field: field, current: value,
                   version: Version(timestamp: HybridTimestamp(millis: 9_000), replica: replica))
    }

    @Test func aStalePromptReopensAndAsks() {
        var s = state
        _ = s.send(Fixture.keys("e"))
        _ = s.send(Fixture.keys(" mine"))
        let effects = s.send(.key(.enter))
        guard case .write(.setTitle(_, "Alpha mine"), let seen, _)? = effects.first else {
            Issue.record("Enter writes the title: \(effects)"); return
        }
        #expect(Set(seen.keys) == [.title, .done, .deleted])
        let conflict = stale(.title, .string("Renamed"), by: theirs)
        _ = s.send(.stale(conflict, .edit))
        #expect(s.prompt?.conflict?.text == "title is now “Renamed”, changed on another machine")
        #expect(s.prompt?.editor.text == "Alpha mine")
        // Keys meant for the list write nothing while it asks.
        #expect(s.send(Fixture.keys("xDu")).isEmpty)
        // o: written again, now expecting the version it was shown.
        guard case .write(.setTitle(_, "Alpha mine"), let again, _)? = s.send(Fixture.keys("o")).first else {
            Issue.record("o overwrites"); return
        }
        #expect(again[.title] == conflict.version)
    }

    @Test func keepTheirsClosesAndEditGoesBackToTyping() {
        var s = state
        _ = s.send(Fixture.keys("e"))
        _ = s.send(.key(.enter))  // unchanged text: nothing to write
        #expect(s.prompt == nil)
        _ = s.send(Fixture.keys("e"))
        _ = s.send(Fixture.keys("!"))
        _ = s.send(.key(.enter))
        _ = s.send(.stale(stale(.deleted, .bool(true), by: mine), .edit))
        #expect(s.prompt?.conflict?.text == "it was deleted, changed on this machine")
        _ = s.send(Fixture.keys("e"))
        #expect(s.prompt?.conflict == nil)
        #expect(s.prompt?.seen[.deleted] == .some(stale(.deleted, .bool(true), by: mine).version))
        _ = s.send(.key(.enter))
        _ = s.send(.stale(stale(.title, .string("X"), by: theirs), .edit))
        _ = s.send(Fixture.keys("k"))
        #expect(s.prompt == nil)
        #expect(s.message?.text == "kept the other change; nothing written")
    }

    @Test func undoThenRedoMoveOneEntryBetweenTheStacks() {
        var s = state
        let entry = UndoEntry(inverse: .setUrgency(a.id, nil), original: .setUrgency(a.id, .urgent), description: "urgency of “Alpha”")
        _ = s.send(.wrote(.setUrgency(a.id, .urgent), task: a.id, undo: entry))
        #expect(s.send(Fixture.keys("Z")).isEmpty)
        #expect(s.message?.text == "nothing to redo")
        #expect(s.send(Fixture.keys("z")) == [.undo(entry)])
        let flipped = entry.flipped(leaving: [.urgency: nil])
        _ = s.send(.undone(entry, leaving: [.urgency: nil], redo: false))
        #expect(s.redoStack == [flipped])
        #expect(flipped.inverse == .setUrgency(a.id, .urgent))
        #expect(s.send(Fixture.keys("Z")) == [.redo(flipped)])
        // A refused redo says why and keeps nothing.
        _ = s.send(.stale(stale(.urgency, .string("not-urgent"), by: theirs), .redo(flipped)))
        #expect(s.message?.text == "cannot redo urgency of “Alpha”: urgency is now “not-urgent”, changed on another machine; nothing changed")
        #expect(s.undoStack.isEmpty && s.redoStack.isEmpty)
    }

    @Test func undoingTwoChangesOfOneFieldWalksBackThroughBoth() {
        var s = state
        func v(_ n: Int64) -> Version { Version(timestamp: HybridTimestamp(millis: n), replica: mine) }
        // Importance 3 → 1 (v2) → 2 (v3); v1 was there before.
        let first = UndoEntry(inverse: .setImportance(a.id, .high), original: .setImportance(a.id, .low), description: "one",
                              written: [.importance: v(2)], prior: [.importance: v(1)])
        let second = UndoEntry(inverse: .setImportance(a.id, .low), original: .setImportance(a.id, .medium), description: "two",
                               written: [.importance: v(3)], prior: [.importance: v(2)])
        s.undoStack = [first, second]
        #expect(s.send(Fixture.keys("z")) == [.undo(second)])
        _ = s.send(.undone(second, leaving: [.importance: v(4)], redo: false))
        // The first change's undo now expects what the second's undo left.
        #expect(s.undoStack.last?.written[.importance] == .some(v(4)))
        #expect(s.redoStack.last?.written[.importance] == .some(v(4)))
        #expect(s.redoStack.last?.prior[.importance] == .some(v(3)))
        let relinked = s.undoStack.last!
        #expect(s.send(Fixture.keys("z")) == [.undo(relinked)])
        _ = s.send(.undone(relinked, leaving: [.importance: v(5)], redo: false))
        // Redo walks forward the same way.
        #expect(s.redoStack.map(\.description) == ["two", "one"])
        let redoFirst = s.redoStack.last!
        #expect(s.send(Fixture.keys("Z")) == [.redo(redoFirst)])
        _ = s.send(.undone(redoFirst, leaving: [.importance: v(6)], redo: true))
        #expect(s.redoStack.last?.written[.importance] == .some(v(6)))
        // A change made elsewhere in between is not papered over.
        var t = state
        t.undoStack = [UndoEntry(inverse: .setImportance(a.id, .high), original: .setImportance(a.id, .low), description: "one",
                                 written: [.importance: v(2)], prior: [.importance: v(1)]),
                       UndoEntry(inverse: .setImportance(a.id, .low), original: .setImportance(a.id, .medium), description: "two",
                                 written: [.importance: v(9)], prior: [.importance: v(8)])]
        let top = t.undoStack.last!
        _ = t.send(Fixture.keys("z"))
        _ = t.send(.undone(top, leaving: [.importance: v(10)], redo: false))
        #expect(t.undoStack.last?.written[.importance] == .some(v(2)))
    }

    @Test func aNewEditEmptiesTheRedoStack() {
        var s = state
        s.redoStack = [UndoEntry(inverse: .complete(a.id), original: .reopen(a.id), description: "d")]
        _ = s.send(.wrote(.setUrgency(a.id, .urgent), task: a.id,
                          undo: UndoEntry(inverse: .setUrgency(a.id, nil), original: .setUrgency(a.id, .urgent), description: "u")))
        #expect(s.redoStack.isEmpty)
    }

    @Test func aPasteIsOneLineOfTextInAPromptAndNothingOutside() {
        var s = state
        #expect(s.send(.key(.paste("xDn"))).isEmpty)
        #expect(s.message?.text.hasPrefix("a paste does nothing outside a prompt") == true)
        _ = s.send(Fixture.keys("a"))
        _ = s.send(.key(.paste("one\r\ntwo\tthree\u{7}")))
        #expect(s.prompt?.editor.text == "one two three")
    }

    @Test func ctrlCCancelsAPromptFirstAndSignalsSetTheExitStatus() {
        var s = state
        _ = s.send(Fixture.keys("e"))
        #expect(s.send(.signal(2)).isEmpty)
        #expect(s.prompt == nil && !s.quitting)
        #expect(s.send(.signal(2)) == [.quit])
        #expect(s.exitStatus == 130)
        var t = state
        _ = t.send(Fixture.keys("e"))
        #expect(t.send(.signal(15)) == [.quit])
        #expect(t.exitStatus == 143)
        var q = state
        _ = q.send(Fixture.keys("q"))
        #expect(q.quitting && q.exitStatus == 0)
    }

    @Test func theConflictKeysStayOnScreenWhateverWasTyped() {
        var s = state
        s.width = 80
        _ = s.send(Fixture.keys("e"))
        _ = s.send(.key(.paste(String(repeating: "long words ", count: 20))))
        _ = s.send(.key(.enter))
        _ = s.send(.stale(stale(.title, .string("Renamed"), by: theirs), .edit))
        let bar = StatusView.statusBar(s, width: 80).spans.map(\.text).joined()
        #expect(bar.contains("· k keep theirs · e edit"), "\(bar)")
        #expect(TerminalWidth.width(of: bar) == 80)
    }
}
