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
}
