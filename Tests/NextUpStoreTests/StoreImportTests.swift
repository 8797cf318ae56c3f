import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

@Suite struct StoreImportTests {
    let tmp = TemporaryFolder()

    func populated() throws -> TaskStore {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("a")))
        var d = try TaskDraft(title: "Everything 日本語")
        d.urgency = .urgent; d.importance = .high; d.duration = try TaskDuration(minutes: 90)
        d.category = "Deep Work"; d.due = try DueDate.parse("2026-12-24"); d.notes = "n1\nn2"; d.nextUp = true
        _ = try store.add(d)
        var e = try TaskDraft(title: "second in next up"); e.nextUp = true
        _ = try store.add(e)
        let done = try store.add(TaskDraft(title: "done"))
        _ = try store.complete(done.id)
        let gone = try store.add(TaskDraft(title: "gone"))
        _ = try store.delete(gone.id)
        _ = try store.add(TaskDraft(title: "plain"))
        return store
    }

    func export(_ store: TaskStore) throws -> [TaskJSON] {
        let all = try store.allTasks()
        let next = TaskOrdering.nextUp(all)
        return next.map { TaskJSON($0) } + all.filter { !$0.isNextUp }.map { TaskJSON($0) }
    }

    /// Texts of many sizes, in any mix, are stored as they are.
    @Test func textsOfEverySizeAreStoredAsTheyAre() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("arena")))
        let limit = 1_024
        let sizes = [1, 7, limit / 3, limit / 2, limit - 40, limit - 36, limit, limit + 1, 2 * limit]
        var records: [TaskJSON] = []
        for (i, titleSize) in sizes.enumerated() {
            for notesSize in [0] + sizes {
                var r = TaskJSON(title: String(repeating: "t", count: min(titleSize, TaskText.maxTitleLength - 4)) + "\(i)é")
                r.id = TaskID.make().rawValue
                r.notes = notesSize == 0 ? nil : String(repeating: "n", count: notesSize - 1) + "\(notesSize % 10)"
                r.category = "C\(notesSize)"
                r.source = String(repeating: "s", count: 1 + (titleSize + notesSize) % 97)
                r.externalID = "x\(records.count)"
                records.append(r)
            }
        }
        _ = try store.importTasks(records)
        for r in records {
            let t = try #require(try store.task(TaskID(r.id!)!))
            #expect(t.title == r.title && t.notes == (r.notes ?? "") && t.category == r.category, "\(r.title.utf8.count) \(r.notes?.utf8.count ?? 0)")
            #expect(t.source == r.source && t.externalID == r.externalID)
        }
    }

    @Test func exportImportExportGivesTheSameTasksAndReimportChangesNothing() throws {
        let source = try populated()
        let exported = try export(source)
        let target = try TaskStore.open(StoreLocation(folder: tmp.path("b")))
        let first = try target.importTasks(exported)
        #expect(first.created == 5)
        #expect(try export(target) == exported)
        #expect(try target.nextUp().map(\.title) == ["Everything 日本語", "second in next up"])

        let outbox = try target.outboxCount(after: 0)
        let versions = try target.allTasks().map(\.versions)
        let again = try target.importTasks(exported)
        #expect(again == TaskStore.ImportSummary(created: 0, updated: 0, unchanged: 5))
        #expect(try target.allTasks().map(\.versions) == versions)
        #expect(try target.outboxCount(after: 0) == outbox)
    }

    @Test func importWritesOnlyTheFieldsThatDiffer() throws {
        let store = try populated()
        var records = try export(store)
        let target = records.firstIndex { $0.title == "plain" }!
        let before = try store.resolve(records[target].id!)
        records[target].importance = 2
        let summary = try store.importTasks(records)
        #expect(summary.updated == 1 && summary.unchanged == 4)
        let after = try store.resolve(records[target].id!)
        #expect(after.importance == .medium)
        #expect(after.versions[.title] == before.versions[.title])
        #expect(after.versions[.importance] != nil)
    }

    /// A file dated in whole seconds (Taskwarrior's `modified`), in the second
    /// of this store's later edit: a value new to the field was changed after
    /// that edit and is taken; the value the field held before is a copy from
    /// before it and is kept out.
    @Test func aFileDatedInTheSecondOfAnEditWinsOnlyWithANewValue() throws {
        let second: Int64 = 1_800_000_000_000
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("second")), clock: FixedClock(millis: second + 300))
        func record(_ id: TaskID, _ title: String) -> TaskJSON {
            var r = TaskJSON(title: title)
            r.id = id.rawValue
            r.modified = Timestamps.rfc3339(second)
            return r
        }
        let changed = TaskID.make(), copied = TaskID.make()
        _ = try store.importTasks([record(changed, "first"), record(copied, "first")])
        for id in [changed, copied] { _ = try store.edit(id, set: [(.title, .string("edited in nextup"))]) }

        let summary = try store.importTasks([record(changed, "changed there"), record(copied, "first")])
        #expect(summary.updated == 1 && summary.kept == 1)
        #expect(try store.resolve(changed.rawValue).title == "changed there")
        #expect(try store.resolve(copied.rawValue).title == "edited in nextup")
    }

    @Test func oneBadRecordRejectsTheWholeImport() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("c")))
        var good = TaskJSON(title: "good")
        good.importance = 2
        var bad = TaskJSON(title: "bad")
        bad.due = "2026-13-45"
        #expect(throws: TaskInputError.self) { try store.importTasks([good, bad]) }
        #expect(try store.allTasks().isEmpty)
        var badTitle = TaskJSON(title: "  ")
        badTitle.importance = nil
        #expect(throws: TaskInputError.self) { try store.importTasks([badTitle]) }
        #expect(throws: TaskInputError.self) { try store.importTasks([good, good]) }
    }

    @Test func recordsWithoutIDsGetStableIDs() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("d")))
        var r = TaskJSON(title: "from elsewhere")
        r.id = nil; r.source = "todo.txt"; r.externalID = "line-7"
        #expect(try store.importTasks([r]).created == 1)
        #expect(try store.importTasks([r]).unchanged == 1)
        #expect(try store.allTasks().count == 1)
        #expect(try store.allTasks()[0].externalID == "line-7")
    }
}
