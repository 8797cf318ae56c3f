import NextUpCore
import Testing
@testable import NextUpTUI

/// Issue 35 in the TUI: the keys of repeating and deferred tasks, on the
/// memory backend (which makes occurrences with Core's RecurrenceStep, as
/// the store does).
@Suite struct SeriesKeysTests {
    func make(_ backend: MemoryBackend, width: Int = 100, height: Int = 30) -> (AppRuntime, FakeScreen) {
        let screen = FakeScreen(width: width, height: height)
        let rt = AppRuntime(state: AppState(), backend: backend, screen: screen, clock: FixedClock(millis: Fixture.now))
        rt.start()
        return (rt, screen)
    }

    func type(_ rt: AppRuntime, _ text: String) { rt.handle(keys: text.map { .char($0) }) }

    /// Moves the cursor onto `id` in the Backlog, as a person would.
    func select(_ rt: AppRuntime, _ id: TaskID) {
        rt.handle(keys: [.char("g")])
        let index = rt.state.backlog.ids.firstIndex(of: id) ?? 0
        rt.handle(keys: Array(repeating: Key.char("j"), count: index))
        #expect(rt.state.selectedTask?.id == id)
    }

    /// A repeating task: its rule and its first occurrence.
    func weekly(_ backend: MemoryBackend, _ title: String = "Weekly review") -> TaskID {
        let id = backend.add(title)
        backend.edit(id, .due, .string("2027-01-11"))
        backend.edit(id, .recur, .string(try! RecurrenceRule.parse("every monday").rrule))
        backend.edit(id, .occurrence, .string(OccurrenceID.first(of: id).description))
        return id
    }

    @Test func theRecurrencePromptTakesWordsOrAnRRULEAndSaysWhatItCannotRead() throws {
        let backend = MemoryBackend()
        let id = backend.add("Water plants")
        let (rt, screen) = make(backend)
        rt.handle(keys: [.char("O")])
        #expect(rt.state.prompt?.kind == .recurrence(id))
        type(rt, "every blursday")
        rt.handle(keys: [.enter])
        let error = try #require(rt.state.prompt?.error)
        #expect(error.contains("'blursday'") && error.contains("not understood"), "\(error)")
        #expect(screen.lastFrame!.text.joined().contains("not understood"), "on the status line")
        #expect(backend.tasks[id]?.value(of: .recur) == .null, "nothing written")
        rt.handle(keys: Array(repeating: Key.backspace, count: 14))
        type(rt, "FREQ=WEEKLY;BYDAY=MO")
        rt.handle(keys: [.enter])
        #expect(rt.state.prompt == nil)
        #expect(backend.tasks[id]?.value(of: .recur) == .string("FREQ=WEEKLY;BYDAY=MO"))
        #expect(backend.tasks[id]?.value(of: .occurrence) == .string("\(id.rawValue)#1"))
        #expect(rt.state.message?.text == "repeats every week on monday — z undoes")
        // The row shows it repeats, in the marker column.
        #expect(screen.lastFrame!.text.contains { $0.hasPrefix("▸↻Water plants") }, "\(screen.lastFrame!.text.filter { $0.contains("Water") })")
        rt.handle(keys: [.char("z")])
        #expect(backend.tasks[id]?.value(of: .recur) == .null)
    }

    /// `none` in the rule prompt stops the series the way `X` does: the next
    /// occurrence's id is marked deleted too, not only the rule cleared.
    @Test func noneInTheRecurrencePromptStopsTheSeries() throws {
        let backend = MemoryBackend()
        let id = weekly(backend)
        let (rt, _) = make(backend)
        select(rt, id)
        rt.handle(keys: [.char("O")])
        rt.handle(keys: Array(repeating: Key.backspace, count: 40))
        type(rt, "none")
        rt.handle(keys: [.enter])
        #expect(rt.state.prompt == nil)
        #expect(backend.tasks[id]?.value(of: .recur) == .null)
        let next = OccurrenceID.first(of: id).next.taskID
        #expect(backend.tasks[next]?.deleted == true, "the next occurrence's id is marked deleted")
        #expect(rt.state.message?.text.contains("no longer repeats") == true, "\(String(describing: rt.state.message))")
    }

    @Test func theDeferPromptTakesTheDueDatesWords() {
        let backend = MemoryBackend()
        let id = backend.add("Renew passport")
        let (rt, _) = make(backend)
        rt.handle(keys: [.char("w")])
        #expect(rt.state.prompt?.kind == .deferDate(id))
        type(rt, "+3d")
        rt.handle(keys: [.enter])
        let expected = DueDate(epochDay: rt.state.today.epochDay + 3)
        #expect(backend.tasks[id]?.value(of: TaskField.deferDate) == .string(expected.description))
        #expect(rt.state.message?.text == "deferred until \(expected.description) — z undoes")
    }

    @Test func skippingAsksFirstAndMakesTheNextOccurrence() throws {
        let backend = MemoryBackend()
        let id = weekly(backend)
        let (rt, _) = make(backend)
        rt.handle(keys: [.char("S")])
        #expect(rt.state.prompt?.kind == .confirmSkip(id))
        rt.handle(keys: [.char("n")])
        #expect(rt.state.prompt == nil && backend.tasks[id]?.deleted == false, "any other key keeps it")
        rt.handle(keys: [.char("S"), .char("y")])
        #expect(backend.tasks[id]?.deleted == true)
        let next = OccurrenceID(series: id, number: 2)
        let successor = try #require(backend.tasks[next.taskID])
        #expect(successor.due?.description == "2027-01-18" && successor.title == "Weekly review")
        #expect(rt.state.message?.text.hasPrefix("skipped this occurrence") == true)
    }

    @Test func doneOnAnOccurrenceMakesTheNextOne() throws {
        let backend = MemoryBackend()
        let id = weekly(backend)
        let (rt, _) = make(backend)
        rt.handle(keys: [.char("x")])
        #expect(backend.tasks[id]?.isDone == true)
        let successor = try #require(backend.tasks[OccurrenceID(series: id, number: 2).taskID])
        #expect(successor.isOpen && successor.due?.description == "2027-01-18")
        #expect(rt.state.message?.text == "done “Weekly review”; the next one is in the Backlog")
    }

    @Test func stoppingAsksFirstAndAPlainTaskHasNothingToStop() {
        let backend = MemoryBackend()
        let plain = backend.add("Plain")
        let id = weekly(backend)
        let (rt, _) = make(backend)
        select(rt, plain)
        rt.handle(keys: [.char("X")])
        #expect(rt.state.prompt == nil && rt.state.message?.text.contains("does not repeat") == true)
        select(rt, id)
        rt.handle(keys: [.char("X"), .char("y")])
        #expect(backend.tasks[id]?.value(of: .recur) == .null && backend.tasks[id]?.isOpen == true)
    }

    /// The stale-write rule: a prompt opened before another machine changed
    /// the rule writes nothing and asks.
    @Test func aRecurrencePromptOpenedBeforeARemoteChangeAsks() {
        let backend = MemoryBackend()
        let id = weekly(backend)
        let (rt, _) = make(backend)
        rt.handle(keys: [.char("O")])
        backend.edit(id, .recur, .string("FREQ=DAILY"), by: ReplicaID.make())
        rt.handle(keys: Array(repeating: Key.backspace, count: 30))
        type(rt, "monthly")
        rt.handle(keys: [.enter])
        #expect(backend.tasks[id]?.value(of: .recur) == .string("FREQ=DAILY"), "nothing written over it")
        #expect(rt.state.prompt?.conflict != nil)
        // So does a skip asked before the occurrence moved on.
        rt.handle(keys: [.char("k")])
        rt.handle(keys: [.char("S")])
        backend.edit(id, .done, .int(Fixture.now), by: ReplicaID.make())
        rt.handle(keys: [.char("y")])
        #expect(backend.tasks[id]?.deleted == false && backend.tasks[OccurrenceID(series: id, number: 2).taskID] == nil)
    }

    @Test func theDetailViewShowsTheRuleTheOccurrenceTheNextDueDateAndTheDeferDate() {
        let backend = MemoryBackend()
        let id = weekly(backend)
        backend.edit(id, TaskField.deferDate, .string("2027-01-09"))
        let (rt, screen) = make(backend)
        select(rt, id)
        rt.handle(keys: [.enter])
        let text = screen.lastFrame!.text.joined(separator: "\n")
        #expect(text.contains("repeats    every week on monday · FREQ=WEEKLY;BYDAY=MO"), "\(text)")
        #expect(text.contains("occurrence 1 · next due 2027-01-18"), "\(text)")
        #expect(text.contains("deferred   2027-01-09"), "\(text)")
    }

    @Test func everyRuleReadsInWords() throws {
        let cases = [("every monday", "every week on monday"), ("every 2 weeks", "every 2 weeks"),
                     ("monthly on the 31st", "every month on the 31st (or a shorter month's last day)"),
                     ("3 days after done", "3 days after done"), ("weekdays", "every weekday"),
                     ("every month on the last friday", "every month on the last friday"),
                     ("daily skipping missed", "every day, skipping missed")]
        for (typed, words) in cases {
            #expect(try RecurrenceRule.parse(typed).words == words, "\(typed)")
        }
    }
}
