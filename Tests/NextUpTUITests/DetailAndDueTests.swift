import NextUpCore
import Testing
@testable import NextUpTUI

/// Issue 13's "see and change everything a task has": the due-date prompt
/// (relative dates through Core's parser), the detail view, and notes from
/// the editor written as one conditional edit.
@Suite struct DetailAndDueTests {
    let a = Fixture.task("Alpha", importance: .high)
    let mine = ReplicaID.make(), theirs = ReplicaID.make()

    var state: AppState {
        var s = Fixture.state([a])
        s.replica = mine
        return s
    }

    @Test func theDuePromptTakesRelativeDatesCountedFromTheLocalDay() throws {
        var s = state
        // 2027-01-15T08:00Z; at UTC−10 it is still the 14th there.
        s.utcOffsetSeconds = -10 * 3600
        #expect(s.today.description == "2027-01-14")
        _ = s.send(Fixture.keys("t"))
        #expect(s.prompt?.kind == .due(a.id))
        #expect(Set(s.prompt?.seen.keys.map { $0 } ?? []) == [.due, .done, .deleted])
        _ = s.send(Fixture.keys("tomorrow"))
        let effects = s.send(.key(.enter))
        #expect(effects == [Fixture.promptEdit(.setDue(a.id, try DueDate.parse("2027-01-15")), of: a, field: .due,
                                               inverse: .setDue(a.id, nil), "due date change")])
    }

    @Test func aBadDateKeepsThePromptOpenAndEmptyClears() throws {
        var t = a
        t.due = try DueDate.parse("2027-02-01")
        var s = Fixture.state([t])
        _ = s.send(Fixture.keys("t"))
        #expect(s.prompt?.editor.text == "2027-02-01")
        _ = s.send(.key(.ctrl("u")))
        _ = s.send(Fixture.keys("someday"))
        #expect(s.send(.key(.enter)).isEmpty)
        #expect(s.prompt?.error?.contains("is not one of") == true)
        _ = s.send(.key(.ctrl("u")))
        guard case .write(.setDue(_, nil), _, _)? = s.send(.key(.enter)).first else {
            Issue.record("an empty due prompt clears the date"); return
        }
    }

    @Test func notesGoToTheEditorAndComeBackAsOneConditionalWrite() {
        var s = state
        let effects = s.send(Fixture.keys("N"))
        #expect(effects == [.editNotes(a.id, text: "", original: "", seen: a.seen([.notes, .done, .deleted]))])
        let back = s.send(.notesEdited(a.id, text: "Call back\nTuesday\n", original: "", seen: a.seen([.notes, .done, .deleted])))
        #expect(back == [Fixture.promptEdit(.setNotes(a.id, "Call back\nTuesday"), of: a, field: .notes,
                                            inverse: .setNotes(a.id, ""), "notes change")])
        // Unchanged text writes nothing.
        #expect(s.send(.notesEdited(a.id, text: "\n", original: "", seen: [:])).isEmpty)
        #expect(s.message?.text == "notes unchanged")
    }

    @Test func staleNotesAskAndEditReopensTheEditorWithTheirVersionSeen() {
        var s = state
        _ = s.send(.notesEdited(a.id, text: "mine", original: "", seen: a.seen([.notes, .done, .deleted])))
        let version = Version(timestamp: HybridTimestamp(millis: 9_000), replica: theirs)
        _ = s.send(.stale(StaleWrite(task: a.id, field: .notes, current: .string("theirs"), version: version), .edit))
        #expect(s.prompt?.conflict?.text == "notes is now “theirs”, changed on another machine")
        let again = s.send(Fixture.keys("e"))
        var seen = a.seen([.notes, .done, .deleted])
        seen[.notes] = version
        #expect(again == [.editNotes(a.id, text: "mine", original: "", seen: seen)])
        #expect(s.prompt == nil)
    }

    @Test func theDetailViewShowsEveryFieldAndWhereTheLastChangeCameFrom() throws {
        var t = a
        t.notes = "first line\nsecond line"
        t.category = "Deep Work"
        t.due = try DueDate.parse("2027-01-10")
        t.created = Fixture.now - 3_600_000
        t.versions[.notes] = Version(timestamp: HybridTimestamp(millis: Fixture.now - 60_000), replica: theirs)
        var s = Fixture.state([t])
        s.replica = mine
        _ = s.send(.key(.enter))
        #expect(s.showDetail)
        let text = MainView.frame(s).text.joined(separator: "\n")
        #expect(text.contains("Task \(t.id.short)"))
        #expect(text.contains(t.id.rawValue))
        #expect(text.contains("Deep Work"))
        #expect(text.contains("2027-01-10 · overdue"))
        #expect(text.contains("created    2027-01-15 07:00"))
        #expect(text.contains("2027-01-15 07:59 · on another machine (replica \(theirs.rawValue.prefix(8)))"))
        #expect(text.contains("first line") && text.contains("second line"))
        _ = s.send(.key(.escape))
        #expect(!s.showDetail)
    }

    @Test func dueDatesThatAreTodayOrPastStandOutInTheList() throws {
        var past = Fixture.task("Past")
        past.due = try DueDate.parse("2027-01-14")
        var now = Fixture.task("Now")
        now.due = try DueDate.parse("2027-01-15")
        let s = Fixture.state([past, now], width: 100)
        let lines = MainView.frame(s).lines
        let pastLine = try #require(lines.first { $0.text.contains("Past") })
        let nowLine = try #require(lines.first { $0.text.contains("Now") })
        #expect(pastLine.text.contains("2027-01-14!"))
        #expect(nowLine.text.contains("today"))
        #expect(pastLine.spans.contains { $0.style == .overdue } || pastLine.spans.contains { $0.style == .selected })
        #expect(nowLine.spans.contains { $0.style == .dueToday } || nowLine.spans.contains { $0.style == .selected })
    }
}
