import Testing
@testable import NextUpCore

@Suite struct OccurrenceIDTests {
    static let series = TaskID("6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f")!

    @Test func theFirstOccurrenceIsTheSeriesTask() {
        #expect(OccurrenceID.first(of: Self.series).taskID == Self.series)
    }

    /// The same series and number name the same task on every machine and
    /// in every release: these ids are pinned.
    @Test func idsAreStable() {
        let second = OccurrenceID(series: Self.series, number: 2)
        #expect(second.taskID == OccurrenceID.first(of: Self.series).next.taskID)
        #expect(second.taskID.rawValue == TaskID.stable(from: "nextup-occurrence:2:6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f").rawValue)
        #expect(second.taskID.rawValue == "\(second.taskID)")
    }

    @Test func idsAreDistinctPerNumberAndPerSeries() {
        let seriesIDs = (0..<50).map { _ in TaskID.make() } + [Self.series]
        var seen: Set<TaskID> = Set(seriesIDs)
        for series in seriesIDs {
            for n in 2...200 {
                let id = OccurrenceID(series: series, number: n).taskID
                #expect(seen.insert(id).inserted, "\(series) #\(n)")
                // A well-formed id: canonical lowercase, version 5.
                #expect(TaskID(id.rawValue)?.rawValue == id.rawValue)
                #expect(Array(id.rawValue)[14] == "5")
            }
        }
    }

    /// Neighbouring occurrences are told apart by the shortest prefix a
    /// person may type (4 characters), not only by their last digits.
    @Test func neighbouringOccurrencesDifferInTheirFirstDigits() {
        for n in 1...300 {
            let a = OccurrenceID(series: Self.series, number: n).taskID.rawValue
            let b = OccurrenceID(series: Self.series, number: n + 1).taskID.rawValue
            #expect(a.prefix(4) != b.prefix(4), "#\(n) \(a) #\(n + 1) \(b)")
        }
    }

    @Test func theTextFormReadsBack() {
        let id = OccurrenceID(series: Self.series, number: 42)
        #expect(id.description == "6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f#42")
        #expect(OccurrenceID(id.description) == id)
        for bad in ["", "#2", "6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f", "6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f#0",
                    "6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f#02", "6F1C2B4E-1D2A-4C3B-9E8F-0A1B2C3D4E5F#2",
                    "6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f#-1", "6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f#1#2"] {
            #expect(OccurrenceID(bad) == nil, "\(bad)")
        }
    }
}
