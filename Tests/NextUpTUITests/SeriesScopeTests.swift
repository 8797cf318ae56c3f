import NextUpCore
import Testing
@testable import NextUpTUI

/// Issue 35: an edit of a repeating task asks whether it is for this
/// occurrence only or for the series; the answer decides the write.
@Suite struct SeriesScopeTests {
    func repeating(_ title: String) throws -> TaskItem {
        var t = Fixture.task(title)
        t.recur = try RecurrenceRule.parse("every monday")
        t.occurrence = OccurrenceID.first(of: t.id)
        return t
    }

    /// Renames the only task through the title prompt.
    func rename(_ s: inout AppState, to title: String) -> [Effect] {
        var effects = s.send(Fixture.keys("e"))
        effects += s.send([Event](repeating: .key(.ctrl("u")), count: 1))
        effects += s.send(Fixture.keys(title))
        effects += s.send(.key(.enter))
        return effects
    }

    @Test func aPlainTaskIsWrittenWithoutTheQuestion() {
        let plain = Fixture.task("Plain")
        var s = Fixture.state([plain])
        #expect(rename(&s, to: "Other") == [Fixture.promptEdit(.setTitle(plain.id, "Other"), of: plain, field: .title,
                                                                inverse: .setTitle(plain.id, "Plain"), "title change")])
        #expect(s.prompt == nil)
        #expect(s.send(Fixture.keys("u")) == [Fixture.keyEdit(.setUrgency(plain.id, .urgent), of: plain,
                                                                inverse: .setUrgency(plain.id, nil), "urgency of “Plain”")])
    }

    @Test func tWritesForThisOccurrenceOnlyAndSForTheSeries() throws {
        let weekly = try repeating("Weekly")
        let write = Fixture.promptEdit(.setTitle(weekly.id, "Other"), of: weekly, field: .title,
                                       inverse: .setTitle(weekly.id, "Weekly"), "title change")
        var s = Fixture.state([weekly])
        #expect(rename(&s, to: "Other") == [], "nothing written before the answer")
        #expect(s.prompt?.kind == .seriesScope(weekly.id))
        #expect(s.prompt?.label.contains("This one only or the whole series?") == true)
        #expect(s.send(Fixture.keys("q")) == [], "another key does not answer")
        #expect(s.prompt?.kind == .seriesScope(weekly.id))
        #expect(s.send(Fixture.keys("t")) == [.write(.thisOnly(.setTitle(weekly.id, "Other")), seen: weekly.seen([.title, .done, .deleted]),
                                                    undo: UndoEntry(inverse: .thisOnly(.setTitle(weekly.id, "Weekly")),
                                                                    original: .thisOnly(.setTitle(weekly.id, "Other")),
                                                                    description: "title change"))])
        #expect(s.prompt == nil)
        #expect(s.submitted?.kind == .title(weekly.id), "a stale write reopens the title prompt")

        var series = Fixture.state([weekly])
        _ = rename(&series, to: "Other")
        #expect(series.send(Fixture.keys("s")) == [write])
        #expect(series.prompt == nil)

        // A one-key change asks too.
        var key = Fixture.state([weekly])
        #expect(key.send(Fixture.keys("u")) == [])
        #expect(key.prompt?.kind == .seriesScope(weekly.id))
        #expect(key.send(Fixture.keys("s")) == [Fixture.keyEdit(.setUrgency(weekly.id, .urgent), of: weekly,
                                                                 inverse: .setUrgency(weekly.id, nil), "urgency of “Weekly”")])
    }

    @Test func escapeWritesNothing() throws {
        let weekly = try repeating("Weekly")
        var s = Fixture.state([weekly])
        _ = rename(&s, to: "Other")
        #expect(s.send(.key(.escape)) == [])
        #expect(s.prompt == nil)
        #expect(s.message?.text == "nothing changed")
    }

    /// The memory backend mirrors the store: a this-only title stays on the
    /// occurrence, the series keeps its own.
    @Test func theMemoryBackendKeepsTheSeriesValueForAThisOnlyEdit() throws {
        let backend = MemoryBackend(tasks: [try repeating("Weekly")])
        let id = backend.tasks.keys.first!
        _ = try backend.perform(.thisOnly(.setTitle(id, "Just this week")), expecting: [:])
        let task = try #require(backend.tasks[id])
        #expect(task.title == "Just this week")
        #expect(task.thisOnlyFields == [.title])
    }
}
