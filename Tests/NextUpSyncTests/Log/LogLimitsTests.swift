import Foundation
import NextUpCore
import Testing
@testable import NextUpSync

/// What the log refuses and how a writer keeps every line readable (issue 10).
@Suite struct LogLimitsTests {
    let owner = Fixtures.replicaA

    @Test func aVersionBeyondTheSaneFutureIsRefusedAsDamagedAndTheRestOfTheLineKept() throws {
        let now: Int64 = 1_700_000_000_000
        let task = Fixtures.task(1)
        let record = LogRecord(task: task, changes: [
            Fixtures.change(task, .title, .string("sane"), Fixtures.version(now + 300 * oneDay)),
            Fixtures.change(task, .notes, .string("from the far future"), Version(timestamp: .greatest, replica: owner)),
        ])
        let decoder = LogDecoder(file: "f", owner: owner, notAfter: HybridClock.saneFutureLimit(now: now))
        let scan = decoder.scan(record.encodedLine(owner: owner), at: 0)
        #expect(scan.records.count == 1 && scan.records[0].changes.map(\.field) == [.title])
        #expect(scan.issues.count == 1 && scan.issues[0].description.contains("more than a year ahead"))
        // Without a limit (reading what a writer wrote), it is read.
        #expect(LogDecoder(file: "f", owner: owner).scan(record.encodedLine(owner: owner), at: 0).records[0].changes.count == 2)
    }

    @Test func aRecordLongerThanALineIsSplitOverLinesThatReadBackWhole() throws {
        let task = Fixtures.task(2)
        let changes = [TaskField.title, .notes, .category, .source, .externalID].enumerated().map { index, field in
            Fixtures.change(task, field, .string(String(repeating: "\u{1}", count: 90)), Fixtures.version(Int64(index + 1)))
        }
        let record = LogRecord(task: task, changes: changes)
        let whole = record.encodedLine(owner: owner)
        let limit = 700
        #expect(whole.count - 1 > limit)
        let bytes = record.encodedLines(owner: owner, maxLength: limit)
        let lines = bytes.split(separator: 0x0A)
        #expect(lines.count > 1 && lines.allSatisfy { $0.count <= limit })
        let scan = LogDecoder(file: "f", owner: owner).scan(bytes, at: 0)
        #expect(scan.issues.isEmpty)
        #expect(Set(scan.records.flatMap(\.changes)) == Set(changes))
        // A record that fits stays one line.
        #expect(record.encodedLines(owner: owner) == whole)
    }

    @Test func theLargestAcceptedValuesEscapedAtWorstFitOneLine() {
        // Every byte of a value can be written as six (\u0001): the byte limits keep it under a line.
        #expect(6 * TaskText.maxNotesBytes < LogFormat.maxLineLength)
        #expect(6 * (TaskText.maxTitleBytes + TaskText.maxCategoryBytes + 2 * TaskText.maxLabelBytes) + 6 * TaskText.maxNotesBytes < LogFormat.maxLineLength)
    }

    @Test func theFolderMarkerRoundTripsAndDamageIsNoticed() {
        let marker = PeerFolderMarker(id: "4a0c5b7e-0d5e-4c1e-9d4e-1b8f7a6c5d4e", created: 42)
        var line = marker.encodedLine()
        #expect(PeerFolderMarker.decode(line) == marker)
        line[12] = UInt8(ascii: "X")
        #expect(PeerFolderMarker.decode(line) == nil)
        #expect(PeerFolderMarker.decode([]) == nil)
        #expect(PeerFileName.classify(PeerFolderMarker.fileName) == .ignored)
    }
}
