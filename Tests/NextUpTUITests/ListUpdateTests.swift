import NextUpTestSupport
import Foundation
import Testing
import NextUpCore
import NextUpStore
@testable import NextUpTUI

/// The TUI's lists brought up to date from the last reading (only the rows
/// written since, re-placed by Core's order) are exactly the lists read whole
/// at the same moment, on random stores after random local writes, merges
/// from another machine and changes of the kept-done tasks.
@Suite struct ListUpdateTests {
    static let categories = ["Admin", "admin", "Deep Work"]
    static let queries = ["", "is:tbd", "is:urgent", "due:week", "is:next", "+home", "is:later", "due:overdue is:tbd"]

    @Test(arguments: 0..<8)
    func updatedListsAreTheListsReadWhole(seed: UInt64) throws {
        var rng = SeededRandom(seed: 900 + seed)
        let folder = TemporaryFolder()
        let store = try TaskStore.open(StoreLocation(folder: folder.url), clock: FixedClock(millis: Fixture.now))
        let peer = ReplicaID.make()
        var peerClock = HybridClock()
        var ids: [TaskID] = []
        for i in 0..<120 { ids.append(try store.add(TaskDraft(title: "task \(i)")).id) }
        for id in ids { try randomLocalWrite(store, id, &rng) }
        let today = DueDate(epochDay: Fixture.now / 86_400_000)
        let sort = BacklogSort.allCases[Int(seed) % BacklogSort.allCases.count]
        let filter = try ListFilter.parse(Self.queries[Int(seed) % Self.queries.count])
        let narrowing = TaskStore.ListNarrowing(filter, today: today)
        var keep: Set<TaskID> = []
        var last = try store.lists(sort: sort, narrowing: narrowing, keepDone: keep, nowMillis: Fixture.now)
        #expect(last.readWhole)
        for step in 0..<40 {
            for _ in 0..<Int(rng.next() % 6) {
                let id = ids.randomElement(using: &rng)!
                switch rng.next() % 4 {
                case 0:
                    try randomLocalWrite(store, id, &rng)
                case 1:
                    // Another machine's change, older or newer than what is held.
                    let millis = Fixture.now + Int64(rng.next() % 200_000) - 100_000
                    let version = Version(timestamp: peerClock.tick(now: millis), replica: peer)
                    _ = try store.mergeRemote([FieldChange(task: id, field: randomField(&rng).0, value: randomField(&rng).1, version: version)])
                case 2:
                    // A task made on another machine: its creation, or (not
                    // yet shown) only a later change of it.
                    let new = TaskID.make()
                    let version = { Version(timestamp: peerClock.tick(now: Fixture.now), replica: peer) }
                    var changes = [FieldChange(task: new, field: .urgency, value: .string("urgent"), version: version())]
                    if rng.chance(0.7) {
                        changes += [FieldChange(task: new, field: .title, value: .string("from the peer"), version: version()),
                                    FieldChange(task: new, field: .created, value: .int(Fixture.now - Int64(rng.next() % 1_000_000)), version: version())]
                    }
                    _ = try store.mergeRemote(changes)
                    ids.append(new)
                default:
                    // A task done in this session stays listed, then leaves.
                    if rng.chance(0.5), let done = try store.task(id), done.isDone, !done.deleted { keep.insert(id) } else if let gone = keep.randomElement(using: &rng) { keep.remove(gone) }
                }
            }
            let now = Fixture.now + Int64(step) * 1_000
            let updated = try store.lists(sort: sort, narrowing: narrowing, keepDone: keep, nowMillis: now, since: last)
            #expect(!updated.readWhole)
            #expect(updated.rankedAt == Fixture.now)
            let whole = try store.lists(sort: sort, narrowing: narrowing, keepDone: keep, nowMillis: Fixture.now)
            #expect(updated.nextUp == whole.nextUp, "step \(step)")
            #expect(updated.backlog == whole.backlog, "step \(step)")
            last = updated
        }
    }

    /// A listing for another sort or filter, or one ranked long ago, is not
    /// brought up to date: the lists are read whole, ranked now.
    @Test func anotherQueryOrAnOldRankingIsReadWhole() throws {
        let folder = TemporaryFolder()
        let store = try TaskStore.open(StoreLocation(folder: folder.url), clock: FixedClock(millis: Fixture.now))
        _ = try store.add(TaskDraft(title: "one"))
        let first = try store.lists(sort: .score, nowMillis: Fixture.now)
        #expect(try !store.lists(sort: .score, nowMillis: Fixture.now + 1, since: first).readWhole)
        #expect(try store.lists(sort: .due, nowMillis: Fixture.now, since: first).readWhole)
        #expect(try store.lists(sort: .score, narrowing: TaskStore.ListNarrowing(try ListFilter.parse("is:tbd")), nowMillis: Fixture.now, since: first).readWhole)
        let later = Fixture.now + TaskStore.rerankAfterMillis
        let reranked = try store.lists(sort: .score, nowMillis: later, since: first)
        #expect(reranked.readWhole && reranked.rankedAt == later)
    }

    /// The plain listing of ``StoreBackend`` follows writes made elsewhere
    /// (another connection to the same store) without reading the lists whole.
    @Test func storeBackendFollowsAnotherConnectionsWrites() throws {
        let folder = TemporaryFolder()
        let store = try TaskStore.open(StoreLocation(folder: folder.url), clock: FixedClock(millis: Fixture.now))
        let other = try TaskStore.open(StoreLocation(folder: folder.url), clock: FixedClock(millis: Fixture.now))
        let backend = StoreBackend(store: store)
        let a = try store.add(TaskDraft(title: "a")).id
        #expect(try backend.listIDs(ListQuery(), nowMillis: Fixture.now).backlog == [a])
        let b = try other.edit(try other.add(TaskDraft(title: "b")).id, set: [(.urgency, .string("urgent"))]).task.id
        #expect(try backend.listIDs(ListQuery(), nowMillis: Fixture.now).backlog == [b, a])
        _ = try other.complete(b)
        #expect(try backend.listIDs(ListQuery(), nowMillis: Fixture.now).backlog == [a])
        #expect(try backend.listIDs(ListQuery(keepDone: [b]), nowMillis: Fixture.now).backlog == [b, a])
    }

    func randomField(_ rng: inout SeededRandom) -> (TaskField, FieldValue) {
        switch rng.next() % 10 {
        case 0: return (.urgency, rng.chance(0.3) ? .null : .string(rng.chance(0.5) ? "urgent" : "not-urgent"))
        case 1: return (.importance, rng.chance(0.3) ? .null : .int(Int64(rng.next() % 3) + 1))
        case 2: return (.duration, rng.chance(0.3) ? .null : .int(Int64(rng.next() % 240) + 1))
        case 3: return (.category, rng.chance(0.3) ? .null : .string(Self.categories.randomElement(using: &rng)!))
        case 4: return (.due, rng.chance(0.3) ? .null : .string(DueDate(epochDay: Fixture.now / 86_400_000 + Int64(rng.next() % 40) - 20).description))
        case 5: return (.deferDate, rng.chance(0.7) ? .null : .string(DueDate(epochDay: Fixture.now / 86_400_000 + Int64(rng.next() % 6) - 3).description))
        case 6: return (.tag("home"), .bool(rng.chance(0.5)))
        case 7: return (.deleted, .bool(rng.chance(0.2)))
        case 8: return (.nextUp, rng.chance(0.5) ? .null : .string(["1", "5", "V", "a", "a5"].randomElement(using: &rng)!))
        default: return (.done, rng.chance(0.7) ? .null : .int(Fixture.now))
        }
    }

    func randomLocalWrite(_ store: TaskStore, _ id: TaskID, _ rng: inout SeededRandom) throws {
        guard let task = try store.task(id) else { return }
        switch rng.next() % 6 {
        case 0 where task.isOpen: _ = try store.complete(id)
        case 1 where task.isDone: _ = try store.reopen(id)
        case 2 where task.isOpen && !task.isNextUp: _ = try store.placeInNextUp(id, .end)
        case 3 where task.isOpen && task.isNextUp: _ = try store.removeFromNextUp(id)
        default:
            let (field, value) = randomField(&rng)
            guard field != .done, field != .deleted, field != .nextUp else { return }
            _ = try store.edit(id, set: [(field, value)])
        }
    }
}
