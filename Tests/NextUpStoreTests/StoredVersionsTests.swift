import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// What `export` reads (``TaskStore/allTasksWithStoredVersions()``): every
/// task ``TaskStore/allTasks()`` reads (without its versions), and all its
/// versions, listed in the byte order of their names, their newest its
/// `modified`.
@Suite struct StoredVersionsTests {
    let tmp = TemporaryFolder()

    @Test func exportReadsEveryTaskWithAllItsVersions() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("a")))
        var d = try TaskDraft(title: "Everything 日本語")
        d.urgency = .urgent; d.importance = .high; d.category = "Deep Work"; d.nextUp = true
        let first = try store.add(d)
        _ = try store.edit(first.id, set: [(.title, .string("renamed")), (.tag("Work"), .bool(true))])
        let done = try store.add(TaskDraft(title: "done"))
        _ = try store.complete(done.id)
        let gone = try store.add(TaskDraft(title: "gone"))
        _ = try store.delete(gone.id)
        _ = try store.add(TaskDraft(title: "plain"))

        let whole = try store.allTasks()
        let (tasks, stored) = try store.allTasksWithStoredVersions()
        #expect(tasks.count == 4 && stored.count == 4)
        #expect(tasks.map(\.id) == whole.map(\.id))
        for (i, task) in whole.enumerated() {
            #expect(tasks[i].versions.isEmpty)
            var withoutVersions = tasks[i], expected = task
            withoutVersions.versions = [:]
            expected.versions = [:]
            #expect(withoutVersions == expected)
            let listed = stored[i].sortedByName()
            #expect(Dictionary(uniqueKeysWithValues: listed.map { ($0.field, $0.version) }) == task.versions)
            #expect(listed.map(\.field) == task.versions.keys.sorted(by: TaskField.precedesInByteOrder))
            #expect(StoredVersions.newest(listed) == task.modified)
        }
    }

    @Test func manyTasksComeBackWholeInIDOrder() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("many")))
        let records = (0..<20_000).map { i in
            var r = TaskJSON(title: "task \(i)")
            r.id = TaskID.make().rawValue
            r.category = i % 3 == 0 ? "Home" : nil
            return r
        }
        _ = try store.importTasks(records)
        let whole = try store.allTasks()
        let (tasks, stored) = try store.allTasksWithStoredVersions()
        #expect(tasks.map(\.id) == whole.map(\.id))
        #expect(tasks.map(\.id) == tasks.map(\.id).sorted())
        #expect(tasks.map(\.title) == whole.map(\.title) && tasks.map(\.category) == whole.map(\.category))
        #expect(stored.map { StoredVersions.newest($0.sortedByName()) } == whole.map(\.modified))
    }
}
