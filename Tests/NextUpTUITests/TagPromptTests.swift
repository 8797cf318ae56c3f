import Testing
import NextUpCore
@testable import NextUpTUI

/// Issue 33, items 6 and 7: `+` adds or removes a tag with Tab completing
/// names in use; `C` completes categories; each write carries the versions
/// of the tag registers it writes as the prompt saw them.
@Suite struct TagPromptTests {
    func make(_ backend: MemoryBackend) -> AppRuntime {
        let rt = AppRuntime(state: AppState(), backend: backend, screen: FakeScreen(width: 100, height: 30),
                            clock: FixedClock(millis: Fixture.now))
        rt.start()
        return rt
    }

    func type(_ text: String) -> [Key] { text.map { .char($0) } }

    @Test func plusAddsAndRemovesATagAndTabCompletesNamesInUse() {
        let backend = MemoryBackend()
        backend.add("Fix the sink") { $0.extra[.tag("Home")] = .bool(true) }
        let id = backend.add("Paint the fence")
        let rt = make(backend)
        rt.handle(keys: [.char("G"), .char("+")] + type("ho") + [.tab])
        #expect(rt.state.prompt?.editor.text == "Home")
        #expect(rt.state.prompt?.hint == "Tab: Home")
        rt.handle(keys: [.enter])
        #expect(backend.tasks[id]?.tags == ["Home"])
        #expect(rt.state.message?.text == "tagged +Home")
        rt.handle(keys: [.char("+")] + type("HOME") + [.enter])
        #expect(rt.state.message?.text == "already tagged +Home")
        rt.handle(keys: [.char("+")] + type("-h") + [.tab, .enter])
        #expect(backend.tasks[id]?.tags == [])
        #expect(rt.state.message?.text == "untagged Home")
        rt.handle(keys: [.char("z")])
        #expect(backend.tasks[id]?.tags == ["Home"], "z takes the removal back")
        rt.handle(keys: [.char("+")] + type("-nope") + [.enter])
        #expect(rt.state.prompt?.error == "“nope” is not a tag of this task")
    }

    @Test func categoryTabCompletesConfiguredNamesThenOnesInUseAccentsAside() {
        let backend = MemoryBackend()
        backend.add("Weekly sync") { $0.category = "Réunions équipe" }
        let id = backend.add("Retro")
        let rt = make(backend)
        rt.handle(keys: [.char("G"), .char("C")] + type("re") + [.tab])
        #expect(rt.state.prompt?.hint == "Tab: Recharge · Réunions équipe")
        #expect(rt.state.prompt?.editor.text == "Recharge")
        rt.handle(keys: [.tab])
        #expect(rt.state.prompt?.editor.text == "Réunions équipe")
        rt.handle(keys: [.backTab])
        #expect(rt.state.prompt?.editor.text == "Recharge")
        rt.handle(keys: [.ctrl("u")] + type("réunions ÉQUIPE") + [.enter])
        #expect(backend.tasks[id]?.category == "Réunions équipe")
        rt.handle(keys: [.char("C"), .ctrl("u")] + type("admin") + [.enter])
        #expect(backend.tasks[id]?.category == "Admin", "the configured spelling")
    }

    @Test func theTagWriteExpectsOnlyTheRegistersItWrites() {
        var task = Fixture.task("Alpha")
        let v = Version(timestamp: HybridTimestamp(rawValue: 7), replica: Fixture.replica)
        task.extra[.tag("home")] = .bool(true)
        task.versions[.tag("home")] = v
        task.extra[.tag("work")] = .bool(true)
        task.versions[.tag("work")] = v
        var s = Fixture.state([task])
        #expect(s.send(.key(.char("+"))) == [.loadNames])
        let add = s.send(Fixture.keys("errand") + [.key(.enter)])
        #expect(add == [.write(.setTags(task.id, ["errand": true]), seen: [.done: nil, .deleted: nil, .tag("errand"): nil],
                               undo: UndoEntry(inverse: .setTags(task.id, ["errand": false]), original: .setTags(task.id, ["errand": true]),
                                               description: "tag change"))])
        _ = s.send(.key(.char("+")))
        let remove = s.send(Fixture.keys("-HOME") + [.key(.enter)])
        #expect(remove.first.map { if case .write(.setTags(_, ["home": false]), let seen, _) = $0 { seen[.tag("home")] == .some(v) && seen.count == 3 } else { false } } == true)
    }
}
