import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpTUI

/// Issue 9's property: random interleavings of keys, prompts, undo and redo
/// with outside writes (another process on this store, another machine
/// through a merge) never lose an outside write the person was not shown.
///
/// "Shown" means the UI loaded the row holding it (a reload after the
/// outside write), or a prompt's conflict named it. Until then the field
/// must keep that outside write's version: no key, prompt, undo or redo may
/// replace it.
@Suite struct StaleWritePropertyTests {
    static let runs = 150
    static let steps = 80

    struct Key2: Hashable { let task: TaskID; let field: TaskField }

    @Test func noOutsideWriteIsLostUnseen() throws {
        for seed in 1...UInt64(Self.runs) {
            try run(seed: seed)
        }
    }

    func run(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let backend = MemoryBackend(nowMillis: Fixture.now)
        var ids: [TaskID] = []
        for (i, title) in ["Alpha", "Bravo", "Charlie", "Delta"].enumerated() {
            ids.append(backend.add(title, nextUp: i < 2))
        }
        let other = ReplicaID.make()
        let rt = AppRuntime(state: AppState(width: 100, height: 30), backend: backend,
                            screen: FakeScreen(width: 100, height: 30), clock: FixedClock(millis: Fixture.now))
        rt.start()
        var unseen: [Key2: Version] = [:]
        var log: [String] = []

        for step in 0..<Self.steps {
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 22 {
                // An outside write.
                let id = ids.randomElement(using: &random)!
                let (field, value) = Self.outsideValue(&random)
                let by = random.chance(0.5) ? other : nil
                let before = backend.tasks[id]!.versions[field]
                backend.edit(id, field, value, by: by)
                if let after = backend.tasks[id]!.versions[field], after != before {
                    unseen[Key2(task: id, field: field)] = after
                }
                log.append("outside \(field)=\(value) on \(id.short)")
            } else if roll < 32 {
                rt.handle([.storeChanged])
                log.append("reload")
            } else {
                let key = Self.key(&random, promptOpen: rt.state.prompt != nil)
                rt.handle([.key(key)])
                log.append("key \(key.name)")
            }
            // The invariant, then what this step showed.
            for (k, version) in unseen {
                let now = backend.tasks[k.task]!.versions[k.field]
                #expect(now == version, "seed \(seed) step \(step): \(k.field) of \(k.task.short) lost an unseen outside write; steps: \(log.suffix(12))")
                if now != version { return }
            }
            for (k, version) in unseen {
                if rt.state.rows[k.task]?.versions[k.field] == version
                    || (rt.state.prompt?.conflict?.field == k.field && rt.state.prompt?.conflict?.version == version) {
                    unseen[k] = nil
                }
            }
        }
    }

    static func outsideValue(_ random: inout SeededRandom) -> (TaskField, FieldValue) {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return (.title, .string(["Renamed", "Other", "Third"].randomElement(using: &random)!))
        case 1: return (.urgency, [.string("urgent"), .string("not-urgent"), .null].randomElement(using: &random)!)
        case 2: return (.importance, [.int(1), .int(2), .int(3), .null].randomElement(using: &random)!)
        case 3: return (.duration, [.int(30), .int(90), .null].randomElement(using: &random)!)
        case 4: return (.category, [.string("Admin"), .string("Home"), .null].randomElement(using: &random)!)
        case 5: return (.done, [.int(Fixture.now), .null].randomElement(using: &random)!)
        default: return (.deleted, .bool(random.chance(0.5)))
        }
    }

    static func key(_ random: inout SeededRandom, promptOpen: Bool) -> Key {
        if promptOpen {
            let keys: [Key] = [.char("x"), .char("y"), .char("5"), .char("m"), .backspace, .enter, .enter, .escape,
                               .char("o"), .char("k"), .char("e"), .paste("pasted\nline"), .ctrl("u")]
            return keys.randomElement(using: &random)!
        }
        let keys: [Key] = [.char("j"), .char("k"), .tab, .char("u"), .char("i"), .char("c"), .char("x"), .char("n"),
                           .char("J"), .char("K"), .char("D"), .char("z"), .char("z"), .char("Z"), .char("e"), .char("d"),
                           .char("C"), .paste("xD")]
        return keys.randomElement(using: &random)!
    }
}
