import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// Issue 33, item 6: a category or tag that is the same as one in use but
/// for case takes the spelling in use; a task never keeps one tag in two
/// spellings past its next write, and none is cleaned without a write.
@Suite struct NameSpellingTests {
    let tmp = TemporaryFolder()
    var location: StoreLocation { StoreLocation(folder: tmp.url) }

    @Test func aNewCategoryOrTagTakesTheSpellingInUse() throws {
        let store = try TaskStore.open(location)
        var first = try TaskDraft(title: "Weekly sync")
        first.category = "Réunions équipe"
        first.tags = ["Home"]
        _ = try store.add(first)
        var second = try TaskDraft(title: "Retro")
        second.category = "réunions ÉQUIPE"
        second.tags = ["HOME"]
        let added = try store.add(second)
        #expect(added.category == "Réunions équipe")
        #expect(added.tags == ["Home"])
        let other = try store.add(TaskDraft(title: "Résumé"))
        let edited = try store.edit(other.id, set: [(.category, .string("RÉUNIONS ÉQUIPE")), (.tag("home"), .bool(true))])
        #expect(edited.task.category == "Réunions équipe")
        #expect(edited.task.tags == ["Home"])
        // Accents make another name.
        let resume = try store.edit(other.id, set: [(.category, .string("Reunions equipe"))])
        #expect(resume.task.category == "Reunions equipe")
        #expect(try store.categoryNames() == ["Reunions equipe", "Réunions équipe"])
        #expect(try store.tagNames() == ["Home"])
    }

    @Test func twoSpellingsFromTwoMachinesAreShownOnceAndClearedByTheNextWrite() throws {
        let store = try TaskStore.open(location)
        var draft = try TaskDraft(title: "Fix the sink")
        draft.tags = ["Home"]
        let task = try store.add(draft)
        let later = HybridTimestamp(millis: task.modified.millis + 10)
        _ = try store.mergeRemote([FieldChange(task: task.id, field: .tag("home"), value: .bool(true),
                                               version: Version(timestamp: later, replica: ReplicaID.make()))])
        let merged = try #require(try store.task(task.id))
        #expect(merged.tags == ["Home", "home"])
        #expect(merged.tagNames == ["Home"], "shown once, as first written")
        #expect(merged.duplicateTagSpellings == ["home"])
        // A write that changes nothing cleans nothing.
        #expect(try !store.edit(task.id, set: [(.title, .string("Fix the sink"))]).isChange)
        #expect(try #require(try store.task(task.id)).tags == ["Home", "home"])
        // The next real write of the task clears the later spelling.
        let written = try store.edit(task.id, set: [(.urgency, .string("urgent"))])
        #expect(written.task.tags == ["Home"])
        #expect(try #require(try store.task(task.id)).tags == ["Home"])
    }

    /// The names read from the indexes (schema v12) are the names of the
    /// tasks themselves after any mix of writes: adds, edits of category
    /// and tags, deletes and restores, completions, another machine's
    /// changes, undo and an import over existing tasks.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func theNamesFollowEveryWrite(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let store = try TaskStore.open(location)
        let words = ["Home", "home", "Work", "WORK", "Été", "été", "x", "Zed"]
        var ids: [TaskID] = []
        for step in 0..<120 {
            let word = words.randomElement(using: &rng)!
            switch Int.random(in: 0..<9, using: &rng) {
            case 0, 1:
                var draft = try TaskDraft(title: "t\(step)")
                if rng.chance(0.6) { draft.category = word }
                if rng.chance(0.6) { draft.tags = [word] }
                ids.append(try store.add(draft).id)
            case 2 where !ids.isEmpty:
                _ = try store.edit(ids.randomElement(using: &rng)!, set: [(.category, rng.chance(0.3) ? .null : .string(word))])
            case 3 where !ids.isEmpty:
                _ = try store.edit(ids.randomElement(using: &rng)!, set: [(.tag(word), .bool(rng.chance(0.6)))])
            case 4 where !ids.isEmpty:
                _ = try store.delete(ids.randomElement(using: &rng)!)
            case 5 where !ids.isEmpty:
                _ = try store.restore(ids.randomElement(using: &rng)!)
            case 6 where !ids.isEmpty:
                _ = try store.complete(ids.randomElement(using: &rng)!)
            case 7 where !ids.isEmpty:
                let id = ids.randomElement(using: &rng)!
                let task = try #require(try store.task(id))
                let later = HybridTimestamp(millis: task.modified.millis + 10)
                let tag = rng.chance(0.5)
                let value: FieldValue = tag ? .bool(rng.chance(0.7)) : .string(word)
                _ = try store.mergeRemote([FieldChange(task: id, field: tag ? .tag(word) : .category, value: value,
                                                       version: Version(timestamp: later, replica: ReplicaID.make()))])
            case 8:
                _ = try? store.undoLastChange()
            default:
                break
            }
            if step % 40 == 39 {
                _ = try store.importTasks(try store.allTasks().map { TaskJSON($0) }, overwrite: true)
            }
            let tasks = try store.allTasks().filter { !$0.deleted }
            let categories = TaskStore.firstSpellings(tasks.compactMap { t in t.category.map { ($0, t.created) } })
            let tags = TaskStore.firstSpellings(tasks.flatMap { t in t.tags.map { ($0, t.created) } })
            #expect(try store.categoryNames() == categories, "seed \(seed) step \(step)")
            #expect(try store.tagNames() == tags, "seed \(seed) step \(step)")
        }
    }
}
