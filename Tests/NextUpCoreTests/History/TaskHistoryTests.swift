import NextUpCore
import NextUpTestSupport
import Testing

/// ``TaskHistory``: the order, the old values, the race marks and the
/// handles, as a pure function of a set of entries.
@Suite struct TaskHistoryTests {
    let a = ReplicaID("aaaaaaaa-0000-4000-8000-000000000000")!
    let b = ReplicaID("bbbbbbbb-0000-4000-8000-000000000000")!

    func version(_ ms: Int64, _ replica: ReplicaID) -> Version { Version(timestamp: HybridTimestamp(millis: ms), replica: replica) }

    func title(_ text: String, _ v: Version, seen: ChangeNote.Seen?) -> HistoryEntry {
        HistoryEntry(field: .title, value: .string(text), version: v, note: ChangeNote(origin: .command, seen: seen))
    }

    @Test func aConcurrentEditLosesAndIsMarkedAnEditAfterSeeingIsNot() {
        let base = title("milk", version(1, a), seen: nil)
        let oat = title("oat milk", version(10, a), seen: .version(version(1, a)))
        let soy = title("soy milk", version(20, b), seen: .version(version(1, a)))  // b had not seen oat
        let rice = title("rice milk", version(30, a), seen: .version(version(20, b)))  // a saw soy
        let lines = TaskHistory.lines([rice, base, soy, oat])
        #expect(lines.map(\.entry) == [rice, soy, oat, base])
        #expect(lines.map(\.lostTo) == [nil, nil, version(20, b), nil])
        #expect(lines.map(\.old) == [.string("soy milk"), .string("milk"), .string("milk"), nil])
        #expect(lines.map(\.isCurrent) == [true, false, false, false])
    }

    @Test func unknownSeenVersionsClaimNoRace() {
        let one = title("one", version(10, a), seen: nil)
        let two = title("two", version(20, b), seen: nil)
        #expect(TaskHistory.lines([one, two]).allSatisfy { $0.lostTo == nil })
        let first = title("two", version(10, a), seen: .nothing)
        let same = title("two", version(20, b), seen: .nothing)
        #expect(TaskHistory.lines([first, same]).allSatisfy { $0.lostTo == nil }, "the same value lost nothing")
        let other = title("three", version(20, b), seen: .nothing)
        #expect(TaskHistory.lines([first, other]).last?.lostTo == version(20, b), "a first value written apart on both")
    }

    @Test func theLinesDependOnlyOnTheSetOfEntries() {
        var rng = SeededRandom(seed: 36)
        for _ in 0..<200 {
            var entries: [HistoryEntry] = []
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let replica = Bool.random(using: &rng) ? a : b
                let seen: ChangeNote.Seen? = [nil, .nothing, .version(version(Int64.random(in: 1...9, using: &rng), a))].randomElement(using: &rng)!
                let field: TaskField = Bool.random(using: &rng) ? .title : .tag("x")
                let value: FieldValue = field == .title ? .string(["p", "q"].randomElement(using: &rng)!) : .bool(Bool.random(using: &rng))
                entries.append(HistoryEntry(field: field, value: value, version: version(Int64.random(in: 1...9, using: &rng), replica),
                                            note: ChangeNote(origin: Bool.random(using: &rng) ? .tui : .command, seen: seen)))
            }
            // One write has one value: keep the first entry of each version.
            var byKey: [String: HistoryEntry] = [:]
            for e in entries where byKey["\(e.field.rawValue)\(e.version)"] == nil { byKey["\(e.field.rawValue)\(e.version)"] = e }
            let unique = Array(byKey.values)
            let noteOf = Dictionary(unique.map { ("\($0.field.rawValue)\($0.version)", $0) }, uniquingKeysWith: { x, _ in x })
            // The same changes met twice, with the other notes joined in any order.
            let doubled = (unique + unique.map { e in
                HistoryEntry(field: e.field, value: e.value, version: e.version, note: ChangeNote(origin: .phone, seen: nil))
            }).shuffled(using: &rng)
            let reference = TaskHistory.lines(unique.map { e in
                var joined = noteOf["\(e.field.rawValue)\(e.version)"]!
                joined.note = e.note!.joined(ChangeNote(origin: .phone, seen: nil))
                return joined
            })
            #expect(TaskHistory.lines(doubled) == reference)
            #expect(TaskHistory.lines(doubled.reversed()) == reference)
        }
    }

    @Test func aHandleFindsItsEntryWhileTheFieldStandsAndIsStaleOnceItMoved() {
        let base = title("milk", version(1, a), seen: nil)
        let oat = title("oat milk", version(10, a), seen: .version(version(1, a)))
        let shown = TaskHistory.lines([base, oat])
        let handle = TaskHistory.handle(of: base, current: oat.entry.version)
        #expect(TaskHistory.find(handle, in: shown) == .entry(base, current: oat.entry.version))
        #expect(TaskHistory.find(handle.uppercased(), in: shown) == .entry(base, current: oat.entry.version))
        let soy = title("soy milk", version(20, b), seen: .version(version(10, a)))
        let later = TaskHistory.lines([base, oat, soy])
        guard case .stale(let entry, let now) = TaskHistory.find(handle, in: later) else { Issue.record("not stale"); return }
        #expect(entry == base)
        #expect(now.entry == soy)
        #expect(TaskHistory.find("00000000", in: later) == .none)
    }
}

private extension HistoryEntry {
    var entry: HistoryEntry { self }
}
