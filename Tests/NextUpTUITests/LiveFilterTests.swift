import NextUpCore
import Testing
@testable import NextUpTUI

/// Issue 13's filter as you type: every key re-reads the lists, an unknown
/// `key:` is shown at once and changes nothing, Esc clears.
@Suite struct LiveFilterTests {
    @Test func theListsFollowTheTypingAndEscClears() throws {
        let backend = MemoryBackend()
        backend.add("Pay the rent") { try? $0.restore(.category, to: .string("Deep Work")) }
        backend.add("Call the bank")
        let rt = AppRuntime(state: AppState(), backend: backend, screen: FakeScreen())
        rt.start()
        rt.handle(keys: [.char("/")] + "cat:\"deep w".map { .char($0) })
        #expect(rt.state.prompt?.kind == .filter)
        #expect(rt.state.backlog.count == 0, "cat:deep w matches nothing yet")
        rt.handle(keys: "ork\"".map { .char($0) })
        #expect(rt.state.filter.category == "deep work")
        #expect(rt.state.backlog.count == 1)
        #expect(MainView.frame(rt.state).text[0].contains("filter: cat:\"deep work\" · 1 match · Esc clears"))
        // An unknown key: said at once, the lists stay as they were.
        rt.handle(keys: [.paste(" prio:H")])
        #expect(rt.state.prompt?.error?.hasPrefix("unknown filter 'prio:'") == true)
        #expect(rt.state.backlog.count == 1)
        #expect(rt.handle(keys: [.enter]) == ())
        #expect(rt.state.prompt != nil, "Enter on an error keeps the prompt open")
        rt.handle(keys: [.escape])
        #expect(rt.state.prompt == nil && rt.state.filter.isEmpty)
        #expect(rt.state.backlog.count == 2)
    }

    @Test func escOnTheListsClearsAFilterToo() throws {
        var s = Fixture.state([Fixture.task("A")])
        _ = s.send(Fixture.keys("/ab"))
        _ = s.send(.key(.enter))
        #expect(s.filter.text == "ab")
        #expect(s.send(.key(.escape)) == [.reload])
        #expect(s.filter.isEmpty)
    }
}
