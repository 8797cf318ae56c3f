import NextUpTestSupport
import Foundation
import Testing
import NextUpCore
import NextUpStore
@testable import NextUpTUI

/// The store's lean listing (SQL ordering) gives exactly the orders of
/// ``TaskOrdering`` that the command line uses.
@Suite struct StoreListingTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nextup-tui-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    func randomStore(_ folder: Folder, count: Int, seed: UInt64) throws -> TaskStore {
        var rng = SeededRandom(seed: seed)
        let store = try TaskStore.open(StoreLocation(folder: folder.url))
        var records: [TaskJSON] = []
        for i in 0..<count {
            var t = TaskItem(id: TaskID.make())
            t.title = ["Buy milk", "Über Straße", "write REPORT", "日本語"][Int(rng.next() % 4)] + " \(i)"
            t.created = Fixture.now - Int64(rng.next() % 800) * 86_400_000 / 2 - Int64(rng.next() % 3) * 1000
            if rng.next() % 3 != 0 { t.urgency = rng.next() % 2 == 0 ? .urgent : .notUrgent }
            if rng.next() % 3 != 0 { t.importance = Importance(rawValue: Int(rng.next() % 3) + 1) }
            if rng.next() % 3 != 0 { t.duration = try TaskDuration(minutes: Int(rng.next() % 200) + 1) }
            if rng.next() % 2 == 0 { t.category = ["Admin", "admin", "Deep Work"][Int(rng.next() % 3)] }
            if rng.next() % 2 == 0 { t.due = DueDate(epochDay: Fixture.now / 86_400_000 + Int64(rng.next() % 60) - 30) }
            var j = TaskJSON(t)
            j.created = Timestamps.rfc3339(t.created)
            j.nextUp = rng.next() % 10 == 0
            j.done = rng.next() % 10 == 0
            j.deleted = rng.next() % 20 == 0
            records.append(j)
        }
        _ = try store.importTasks(records)
        return store
    }

    @Test(arguments: BacklogSort.allCases)
    func sqlOrderEqualsTaskOrdering(sort: BacklogSort) throws {
        let folder = Folder()
        let store = try randomStore(folder, count: 400, seed: 7)
        let all = try store.allTasks()
        let listed = try store.listIDs(sort: sort, nowMillis: Fixture.now)
        #expect(listed.nextUp == TaskOrdering.nextUp(all).map(\.id))
        #expect(listed.backlog == TaskOrdering.backlog(all, by: sort, nowMillis: Fixture.now).map(\.id))
    }

    /// `list`'s table, read a task at a time: Core's order and filter, and
    /// each task's table fields as stored.
    @Test(arguments: BacklogSort.allCases)
    func tableListingIsCoresListingWithTheTablesFields(sort: BacklogSort) throws {
        let folder = Folder()
        let store = try randomStore(folder, count: 300, seed: 13)
        let all = try store.allTasks()
        let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
        let today = DueDate(epochDay: Fixture.now / 86_400_000)
        for query in ["", "straße", "cat:admin", "is:tbd due:week", "is:next"] {
            let filter = try ListFilter.parse(query)
            let listed = try store.listed(sort: sort, narrowing: TaskStore.ListNarrowing(filter, today: today), nowMillis: Fixture.now) { $0 }
            let want = (TaskOrdering.nextUp(all) + TaskOrdering.backlog(all, by: sort, nowMillis: Fixture.now))
                .filter { filter.matches($0, today: today) }
            #expect(listed.map(\.id) == want.map(\.id), "\(query)")
            for task in listed {
                for field in TaskStore.tableFields {
                    #expect(task.value(of: field) == byID[task.id]!.value(of: field), "\(field)")
                }
                #expect(task.notes.isEmpty && task.versions.isEmpty)
            }
        }
    }

    @Test func narrowingMatchesTheFilterAndKeptDoneTasksStay() throws {
        let folder = Folder()
        let store = try randomStore(folder, count: 300, seed: 11)
        let all = try store.allTasks()
        let keep = Set(all.filter { $0.isDone && !$0.deleted }.prefix(5).map(\.id))
        let today = DueDate(epochDay: Fixture.now / 86_400_000)
        for query in ["milk", "straße", "ÜBER", "cat:ADMIN is:tbd", "report cat:\"deep work\"", "is:tbd",
                      "due:today", "due:week", "due:overdue", "is:urgent", "is:next", "is:urgent due:week"] {
            let filter = try! ListFilter.parse(query)
            let backend = StoreBackend(store: store)
            let got = try backend.listIDs(ListQuery(sort: .score, filter: filter, keepDone: keep, today: today), nowMillis: Fixture.now)
            let memory = MemoryBackend(tasks: all)
            let want = try memory.listIDs(ListQuery(sort: .score, filter: filter, keepDone: keep, today: today), nowMillis: Fixture.now)
            #expect(got.nextUp == want.nextUp, "\(query)")
            #expect(got.backlog == want.backlog, "\(query)")
        }
        let withDone = try store.listIDs(sort: .created, keepDone: keep, nowMillis: Fixture.now)
        #expect(keep.isSubset(of: Set(withDone.nextUp + withDone.backlog)))
    }

    @Test func storeBackendWritesOnlyTheEditedFieldAndPlacesInNextUp() throws {
        let folder = Folder()
        let store = try TaskStore.open(StoreLocation(folder: folder.url))
        let backend = StoreBackend(store: store)
        let a = try backend.perform(.add(title: "A", toNextUp: true))
        let b = try backend.perform(.add(title: "B", toNextUp: true))
        let c = try backend.perform(.add(title: "C", toNextUp: false))
        _ = try backend.perform(.placeInNextUp(c, .between(after: nil, before: a)))
        #expect(try store.nextUp().map(\.id) == [c, a, b])
        _ = try backend.perform(.placeInNextUp(c, .between(after: a, before: b)))
        #expect(try store.nextUp().map(\.id) == [a, c, b])
        let before = try #require(try store.task(a))
        _ = try backend.perform(.setDuration(a, try TaskDuration(minutes: 30)))
        let after = try #require(try store.task(a))
        #expect(after.duration?.minutes == 30)
        #expect(after.versions.filter { $0.key != .duration } == before.versions.filter { $0.key != .duration })
        _ = try backend.perform(.setDuration(a, nil))
        #expect(try store.task(a)?.duration == nil)
    }
}
