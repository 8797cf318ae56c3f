import Testing
import NextUpCore
@testable import NextUpTUI

/// Issue 33, item 3: after every write the status line says what that write
/// did (never the previous action's words), and a task the write leaves
/// outside the filter is said to be hidden by it.
@Suite struct StatusReportTests {
    func make(_ backend: MemoryBackend) -> AppRuntime {
        let rt = AppRuntime(state: AppState(), backend: backend, screen: FakeScreen(width: 100, height: 30),
                            clock: FixedClock(millis: Fixture.now))
        rt.start()
        return rt
    }

    func type(_ text: String) -> [Key] { text.map { .char($0) } }

    @Test func everyWriteSaysWhatItDid() {
        let backend = MemoryBackend()
        let id = backend.add("Write report")
        let rt = make(backend)
        rt.handle(keys: [.char("u")])
        #expect(rt.state.message?.text == "urgency: urgent")
        rt.handle(keys: [.char("d")] + type("1h") + [.enter])
        #expect(backend.tasks[id]?.duration?.minutes == 60)
        #expect(rt.state.message?.text == "duration: 1h", "not the previous action's urgency")
        rt.handle(keys: [.char("t")] + type("2027-12-24") + [.enter])
        #expect(rt.state.message?.text == "due: 2027-12-24")
        rt.handle(keys: [.char("C")] + type("Deep Work") + [.enter])
        #expect(rt.state.message?.text == "category: Deep Work")
        rt.handle(keys: [.char("e"), .ctrl("u")] + type("Write the report") + [.enter])
        #expect(rt.state.message?.text == "title: “Write the report”")
        rt.handle(keys: [.char("i")])
        #expect(rt.state.message?.text == "importance: 1")
        rt.handle(keys: [.char("n")])
        #expect(rt.state.message?.text == "moved to Next Up")
        rt.handle(keys: [.tab, .char("n")])
        #expect(rt.state.message?.text == "moved to Backlog")
        rt.handle(keys: [.tab, .char("x")])
        #expect(rt.state.message?.text == "done “Write the report” — x again reopens, z undoes")
        rt.handle(keys: [.char("a")] + type("Call Bob") + [.enter])
        #expect(rt.state.message?.text == "added: “Call Bob”")
    }

    @Test func aWriteThatLeavesTheTaskOutsideTheFilterSaysSo() {
        let backend = MemoryBackend()
        backend.add("Plan the offsite")
        let rt = make(backend)
        rt.handle(keys: [.char("/")] + type("plan") + [.enter])
        #expect(rt.state.filter.text == "plan")
        rt.handle(keys: [.char("a")] + type("Buy milk") + [.enter])
        #expect(rt.state.message?.text == "added: “Buy milk” (hidden by the filter)")
        rt.handle(keys: [.char("a")] + type("Plan the party") + [.enter])
        #expect(rt.state.message?.text == "added: “Plan the party”")
        // An edit that takes the task out of an `is:tbd` filter.
        rt.handle(keys: [.escape, .char("/")] + type("is:tbd") + [.enter])
        rt.handle(keys: [.char("g"), .char("u")])
        #expect(rt.state.message?.text == "urgency: urgent")
        rt.handle(keys: [.char("i"), .char("d")] + type("30m") + [.enter])
        #expect(rt.state.message?.text == "duration: 30m")
        rt.handle(keys: [.char("c")])
        #expect(rt.state.message?.text == "category: Essentials (hidden by the filter)")
    }
}
