import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

@Suite struct StoreWriteTests {
    let tmp = TemporaryFolder()
    var location: StoreLocation { StoreLocation(folder: tmp.url) }

    @Test func settingAFieldToItsCurrentValueChangesNothing() throws {
        let store = try TaskStore.open(location)
        let task = try store.add(TaskDraft(title: "t"))
        let first = try store.edit(task.id, set: [(.urgency, .string("urgent"))])
        #expect(first.isChange)
        let outboxAfterFirst = try store.outboxCount(after: 0)
        let second = try store.edit(task.id, set: [(.urgency, .string("urgent"))])
        #expect(!second.isChange)
        let stored = try #require(try store.task(task.id))
        #expect(stored.versions == first.task.versions)
        #expect(stored.modified == first.task.modified)
        #expect(try store.outboxCount(after: 0) == outboxAfterFirst)
    }

    /// A phone's changes (``TaskStore/bridgeWrite(_:set:versions:creating:expecting:vdir:memory:)``'s
    /// versioned ones) are kept with their values and published, each once,
    /// whether they stand or not: one that lost to the task's newer value,
    /// and one a later edit replaced (``Outbox/carried(_:)``).
    @Test func aPhonesChangesArePublishedWithTheirValuesStandingOrNot() throws {
        let store = try TaskStore.open(location)
        let task = try store.add(TaskDraft(title: "t"))
        let phone = try #require(ReplicaID("cccccccc-0000-4000-8000-000000000003"))
        let title = try #require(task.versions[.title])
        let lost = FieldChange(task: task.id, field: .title, value: .string("phone's older title"),
                               version: Version(timestamp: HybridTimestamp(rawValue: title.timestamp.rawValue - 1), replica: phone))
        let replaced = FieldChange(task: task.id, field: .notes, value: .string("phone's notes"),
                                   version: Version(timestamp: title.timestamp.successor, replica: phone))
        let entries = try store.outboxCount(after: 0)
        for _ in 0..<2 {
            _ = try store.bridgeWrite(task.id, set: [(.title, lost.value), (.notes, replaced.value)],
                                      versions: [.title: lost.version, .notes: replaced.version])
        }
        #expect(try store.outboxCount(after: 0) == entries + 1)
        _ = try store.edit(task.id, set: [(.notes, .string("mine"))])
        let stored = try #require(try store.task(task.id))
        #expect(stored.title == "t" && stored.notes == "mine")
        func key(_ c: FieldChange) -> String { "\(c.field) \(c.value) \(c.version)" }
        let published = try store.outbox(after: 0).flatMap(\.changes).map(key)
        #expect(published.filter { $0 == key(lost) }.count == 1)
        #expect(published.filter { $0 == key(replaced) }.count == 1)
        let history = try store.historyEntries(of: task.id).map { key(FieldChange(task: task.id, field: $0.field, value: $0.value, version: $0.version)) }
        #expect(history.contains(key(lost)) && history.contains(key(replaced)))
    }

    @Test func everyRealWriteGetsANewerVersionAndRecordsItForSync() throws {
        let store = try TaskStore.open(location)
        let task = try store.add(TaskDraft(title: "t"))
        let a = try store.edit(task.id, set: [(.importance, .int(2))])
        let b = try store.edit(task.id, set: [(.importance, .null)])  // clearing is a real write
        #expect(b.isChange)
        #expect(b.task.importance == nil)
        #expect(b.changes[0].version > a.changes[0].version)
        let records = try store.outbox(after: 0)
        #expect(records.count == 3)  // add, a, b: every write has its entry
        // a's importance was replaced by b's: only the standing one is read,
        // with the value the row holds (Outbox's contract).
        #expect(records[1].changes.isEmpty)
        #expect(records[2].changes == b.changes)
        #expect(records[2].changes.last?.value == .null)
    }

    @Test func versionsStayAheadEvenWhenTheWallClockGoesBack() throws {
        let late = try TaskStore.open(location, clock: FixedClock(millis: 2_000_000))
        let task = try late.add(TaskDraft(title: "t"))
        let early = try TaskStore.open(location, clock: FixedClock(millis: 1_000))
        let edit = try early.edit(task.id, set: [(.title, .string("u"))])
        #expect(edit.changes[0].version > task.versions[.title]!)
    }

    @Test func doneDeleteAndRestoreAreVersionedAndRestorable() throws {
        let store = try TaskStore.open(location)
        let task = try store.add(TaskDraft(title: "t"))
        #expect(try store.complete(task.id).isChange)
        #expect(try !store.complete(task.id).isChange)
        #expect(try store.openCount() == 0)
        #expect(try store.reopen(task.id).isChange)
        #expect(try store.delete(task.id).isChange)
        #expect(try store.tasks(TaskFilter(scope: .deleted)).map(\.id) == [task.id])
        #expect(try store.openCount() == 0)
        #expect(try store.restore(task.id).isChange)
        #expect(try store.openCount() == 1)
        #expect(try store.task(task.id)?.title == "t")
    }

    @Test func invalidValuesAreRefusedWithoutWriting() throws {
        let store = try TaskStore.open(location)
        let task = try store.add(TaskDraft(title: "t"))
        #expect(throws: TaskInputError.self) { try store.edit(task.id, set: [(.importance, .int(7))]) }
        #expect(try store.task(task.id) == task)
    }

    @Test func referencesResolveByUniquePrefixOnly() throws {
        let store = try TaskStore.open(location)
        let tasks = try (0..<40).map { try store.add(TaskDraft(title: "t\($0)")) }
        let t = tasks[0]
        #expect(try store.resolve(t.id.rawValue.uppercased()).id == t.id)
        let unique = (4...36).map { String(t.id.rawValue.prefix($0)) }.first { p in
            tasks.filter { $0.id.rawValue.hasPrefix(p) }.count == 1
        }!
        #expect(try store.resolve(unique).id == t.id)
        #expect(throws: StoreError.badReference("abc")) { try store.resolve("abc") }
        #expect(throws: StoreError.unknownTask("ffffffff")) { try store.resolve("ffffffff") }
        // Force an ambiguity: two tasks whose ids share a prefix.
        let x = TaskID("abcd0000-0000-4000-8000-000000000001")!, y = TaskID("abcd0000-0000-4000-8000-000000000002")!
        _ = try store.importTasks([TaskJSON(title: "x", id: x), TaskJSON(title: "y", id: y)])
        #expect { try store.resolve("abcd") } throws: { error in
            if case .ambiguous(_, let matches) = error as? StoreError { return matches.count == 2 }
            return false
        }
    }

    @Test func nextUpKeepsTheUsersOrder() throws {
        let store = try TaskStore.open(location)
        var draft = try TaskDraft(title: "a"); draft.nextUp = true
        let a = try store.add(draft)
        draft.title = "b"; let b = try store.add(draft)
        draft.title = "c"; let c = try store.add(draft)
        #expect(try store.nextUp().map(\.id) == [a.id, b.id, c.id])
        _ = try store.placeInNextUp(c.id, .before(a.id))
        #expect(try store.nextUp().map(\.id) == [c.id, a.id, b.id])
        #expect(try !store.placeInNextUp(b.id, .end).isChange)  // already last
        #expect(try !store.placeInNextUp(b.id, .after(a.id)).isChange)
        _ = try store.removeFromNextUp(a.id)
        #expect(try store.nextUp().map(\.id) == [c.id, b.id])
        #expect(try store.backlog().map(\.id) == [a.id])
    }

    @Test func tiedOrderKeysFromTwoReplicasAreReorderable() throws {
        let store = try TaskStore.open(location)
        let ids = (1...3).map { TaskID("abcd0000-0000-4000-8000-00000000000\($0)")! }
        _ = try store.importTasks(ids.map { TaskJSON(title: "t", id: $0) })
        // Give all three the same key, as concurrent inserts on two replicas
        // can: another replica's changes, newer than the import.
        let other = ReplicaID.make()
        let later = HybridTimestamp(millis: Int64(Date().timeIntervalSince1970 * 1_000) + 60_000)
        _ = try store.mergeRemote(ids.map { FieldChange(task: $0, field: .nextUp, value: .string("V"), version: Version(timestamp: later, replica: other)) })
        #expect(try store.tasks(ids: ids).map(\.nextUpPosition) == ["V", "V", "V"])
        _ = try store.placeInNextUp(ids[2], .before(ids[1]))
        #expect(try store.nextUp().map(\.id) == [ids[0], ids[2], ids[1]])
    }

    @Test func manyStoreObjectsWritingAtOnceLoseNothing() async throws {
        let location = self.location
        _ = try TaskStore.open(location)
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                group.addTask {
                    let store = try! TaskStore.open(location)
                    for j in 0..<10 { _ = try! store.add(TaskDraft(title: "w\(i)-\(j)")) }
                }
            }
        }
        #expect(try TaskStore.open(location).openCount() == 80)
    }
}

extension TaskJSON {
    /// A record with a title and a given id (Core's `init(title:)` leaves the id out).
    init(title: String, id: TaskID) {
        self.init(title: title)
        self.id = id.rawValue
    }
}

/// The store's edit intent checks the version its caller saw.
@Suite struct StaleWriteStoreTests {
    @Test func anEditFromAStaleViewIsRefusedAndWritesNothing() throws {
        let tmp = TemporaryFolder()
        let store = try TaskStore.open(StoreLocation(folder: tmp.url))
        let task = try store.add(TaskDraft(title: "seen"))
        let seen = task.versions[.title]
        // Another process renames it meanwhile.
        let other = try TaskStore.open(StoreLocation(folder: tmp.url))
        _ = try other.edit(task.id, set: [(.title, .string("renamed elsewhere"))])
        let outboxBefore = try store.outboxCount(after: 0)
        #expect(throws: StaleWrite.self) {
            try store.edit(task.id, set: [(.title, .string("from the prompt")), (.importance, .int(2))], expecting: [.title: seen])
        }
        let now = try #require(try store.task(task.id))
        #expect(now.title == "renamed elsewhere")
        #expect(now.importance == nil)
        #expect(try store.outboxCount(after: 0) == outboxBefore)
        // With the version it holds now, the edit goes through.
        let result = try store.edit(task.id, set: [(.title, .string("from the prompt"))], expecting: [.title: now.versions[.title]])
        #expect(result.task.title == "from the prompt")
    }
}

@Suite struct ListingReadTests {
    let tmp = TemporaryFolder()
    var location: StoreLocation { StoreLocation(folder: tmp.url) }

    @Test func aListingReadWithFewerVersionsIsTheListingWithThoseLeftOut() throws {
        let store = try TaskStore.open(location)
        for i in 0..<12 {
            var draft = try TaskDraft(title: "task \(i)")
            draft.urgency = i % 3 == 0 ? .urgent : nil
            draft.nextUp = i % 6 == 0
            let t = try store.add(draft)
            if i % 4 == 1 { _ = try store.complete(t.id) }
            if i % 5 == 2 { _ = try store.delete(t.id) }
            if i % 3 == 1 { _ = try store.edit(t.id, set: [(.importance, .int(Int64(i % 3 + 1)))]) }
        }
        for scope in TaskFilter.Scope.allCases {
            let full = try store.tasks(TaskFilter(scope: scope), nowMillis: 1_000)
            let bare = try store.tasks(TaskFilter(scope: scope, versions: .none), nowMillis: 1_000)
            let newest = try store.tasks(TaskFilter(scope: scope, versions: .newest), nowMillis: 1_000)
            #expect(!full.isEmpty, "\(scope)")
            #expect(full.allSatisfy { $0.versions.count > 1 })
            #expect(bare == full.map { var t = $0; t.versions = [:]; return t }, "\(scope)")
            #expect(newest.map(\.id) == full.map(\.id), "\(scope)")
            for (n, f) in zip(newest, full) {
                #expect(n.versions.count == 1)
                #expect(n.modified == f.modified && n.modified != .zero)
                #expect(n.versions.first.map { f.versions[$0.key] == $0.value } == true)
                var rest = n, whole = f
                rest.versions = [:]; whole.versions = [:]
                #expect(rest == whole)
            }
        }
    }
}
