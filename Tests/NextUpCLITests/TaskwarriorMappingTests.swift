import Foundation
import NextUpCore
import Testing
@testable import NextUpCLI

/// nextup's notes ↔ Taskwarrior's annotations (issue 34): the texts read
/// back as the notes, annotations still in the notes keep their dates, and
/// dates increase down the notes.
@Suite struct TaskwarriorMappingTests {
    typealias A = TaskwarriorTask.Annotation
    let options = TaskwarriorMapping.Options(timeZone: TimeZone(identifier: "UTC")!)
    let kept = [A(entry: 1_000_000_000_000, description: "  first  "), A(entry: 1_000_000_001_000, description: "second\nof two lines"),
                A(entry: 1_000_000_500_000, description: "third")]
    let edit: Int64 = 1_700_000_000_000

    func annotations(_ notes: String) -> [A] {
        TaskwarriorMapping.annotations(for: notes, kept: kept, editTime: edit, options)
    }

    @Test func untouchedNotesGiveTheAnnotationsAsTheyCame() {
        let notes = TaskwarriorMapping.notes(kept)
        #expect(notes == "first  \nsecond\nof two lines\nthird")
        #expect(annotations(notes) == kept)
    }

    @Test(arguments: [
        "new at the top\nfirst  \nsecond\nof two lines\nthird",
        "first  \nsecond\nof two lines\nbetween\nthird",
        "first  \nsecond\nof two lines\nthird\nat the end\n\nafter a blank line",
        "third\nfirst  \nsecond\nof two lines",
        "first  \nthird",
        "only new\n\n\nlines",
        "first  \n\nthird",
    ])
    func editedNotesReadBackAndKeepWhatTheyCan(notes: String) {
        let out = annotations(notes)
        #expect(TaskwarriorMapping.notes(out) == notes, "\(out)")
        #expect(zip(out, out.dropFirst()).allSatisfy { $0.entry < $1.entry }, "\(out)")
        #expect(out.allSatisfy { !$0.description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty })
        // An annotation whose text stands in order keeps its date.
        for a in out where kept.contains(a) { #expect(notes.contains(a.description.trimmingCharacters(in: .whitespaces))) }
        if notes.hasPrefix("first") { #expect(out.first == kept.first) }
    }

    @Test func anEarlierNextupsDatedLinesComeBackAsTheAnnotationsTheyWere() {
        let old = kept.map { TaskwarriorMapping.noteTime($0.entry, options) + "  " + $0.description }
        let out = annotations([old[0], "third"].joined(separator: "\n"))
        #expect(out.map(\.entry) == [kept[0].entry, kept[2].entry])
    }
}
