import Foundation
import NextUpCore
import Testing
@testable import NextUpSync

@Suite struct LogFormatTests {
    let owner = Fixtures.replicaA

    /// A field's older change (a phone's, which the outbox publishes even
    /// once replaced) goes in a record after the one holding its newest; a
    /// change named twice is written once.
    @Test func groupingKeepsAnOlderChangeOfAFieldInALaterRecord() {
        let task = Fixtures.task(1), other = Fixtures.task(2)
        let old = FieldChange(task: task, field: .title, value: .string("phone"), version: Fixtures.version(1_000, Fixtures.replicaC))
        let new = FieldChange(task: task, field: .title, value: .string("mine"), version: Fixtures.version(2_000))
        let notes = FieldChange(task: task, field: .notes, value: .string("n"), version: Fixtures.version(2_000))
        let elsewhere = FieldChange(task: other, field: .title, value: .string("x"), version: Fixtures.version(1_500))
        let records = LogRecord.grouping([old, elsewhere, new, notes, old, new])
        #expect(records.map(\.task) == [task, other, task])
        #expect(records.map(\.changes) == [[new, notes], [elsewhere], [old]])
    }

    @Test func headerRoundTrips() throws {
        let header = LogHeader(replica: owner, created: 1_700_000_000_000, previousReplica: Fixtures.replicaC)
        let line = header.encodedLine()
        #expect(line.last == 0x0A)
        #expect(line.dropLast().contains(0x0A) == false)
        let (decoded, end) = try LogDecoder.header(in: line + Array("more".utf8), file: "f").get()
        #expect(decoded == header)
        #expect(end == Int64(line.count))
    }

    @Test func recordsRoundTripWithAwkwardText() throws {
        let task = Fixtures.task(1)
        let changes = [
            Fixtures.change(task, .title, .string("quote \" backslash \\ tab \t nul \u{0} bell \u{7} é 漢字 🧪"), Fixtures.version(10)),
            Fixtures.change(task, .notes, .string("line one\nline two\r\n\u{2028}end"), Fixtures.version(11, Fixtures.replicaB)),
            Fixtures.change(task, .importance, .int(3), Fixtures.version(12, counter: 7)),
            Fixtures.change(task, .urgency, .null, Fixtures.version(13, Fixtures.replicaC)),
            Fixtures.change(task, .deleted, .bool(true), Fixtures.version(14)),
        ]
        let record = LogRecord(task: task, changes: changes)
        let line = record.encodedLine(owner: owner)
        #expect(line.dropLast().contains(0x0A) == false, "one record is one line")
        let scan = LogDecoder(file: "f", owner: owner).scan(line, at: 100)
        #expect(scan.issues.isEmpty)
        #expect(scan.end == 100 + Int64(line.count))
        #expect(scan.records.count == 1)
        #expect(Set(scan.records[0].changes) == Set(changes))
        // Own versions are written short, others in full.
        let text = String(decoding: line, as: UTF8.self)
        #expect(!text.contains("@" + owner.rawValue))
        #expect(text.contains("@" + Fixtures.replicaB.rawValue))
    }

    @Test func everySingleByteCorruptionIsCaught() {
        let task = Fixtures.task(2)
        let record = LogRecord(task: task, changes: [Fixtures.change(task, .title, .string("Pay rent"), Fixtures.version(5))])
        let line = Array(record.encodedLine(owner: owner).dropLast())
        let decoder = LogDecoder(file: "f", owner: owner)
        for index in line.indices {
            for replacement: UInt8 in [0x00, 0x20, 0x41, 0xFF, line[index] ^ 0x01] where replacement != line[index] {
                var damaged = line
                damaged[index] = replacement
                var scan = LogScan(end: 0)
                decoder.decodeLine(damaged[...], at: 0, into: &scan)
                #expect(scan.records.isEmpty, "byte \(index) → \(replacement) went unnoticed")
                #expect(!scan.issues.isEmpty)
            }
        }
    }

    @Test func badLinesAreSkippedAndReportedWithoutBlockingLaterLines() {
        let decoder = LogDecoder(file: "nextup-x.log", owner: owner)
        let good1 = LogRecord(task: Fixtures.task(1), changes: [Fixtures.change(Fixtures.task(1), .title, .string("one"), Fixtures.version(1))])
        let good2 = LogRecord(task: Fixtures.task(2), changes: [Fixtures.change(Fixtures.task(2), .title, .string("two"), Fixtures.version(2))])
        var bytes = good1.encodedLine(owner: owner)
        bytes += Array("this is garbage\n".utf8)
        bytes += [0xC3, 0x28, 0xFF, 0xFE, 0x0A]                         // invalid UTF-8
        bytes += Array("{\"task\":\"x\",\"set\":{}}\n".utf8)           // JSON, no checksum
        bytes += Fixtures.sealed("{\"task\":\"not-a-uuid\",\"set\":{\"title\":[\"t\",\"0000000000010000\"]}}")
        bytes += Fixtures.sealed("{\"hello\":[1,2,3]}")
        bytes += Array("\n\n".utf8)                                   // blank lines: ignored
        bytes += good2.encodedLine(owner: owner)
        let scan = decoder.scan(bytes, at: 0)
        #expect(scan.records == [good1, good2])
        #expect(scan.end == Int64(bytes.count))
        let kinds = scan.issues.map(\.kind)
        #expect(kinds == [.checksumMismatch, .invalidUTF8, .checksumMismatch, .malformed("invalid task id"), .malformed("not a task change")])
        #expect(scan.issues.allSatisfy { $0.offset != nil && $0.description.contains("nextup-x.log, byte") })
    }

    @Test func oneBadFieldDoesNotHideTheOthers() {
        let task = Fixtures.task(3)
        let line = Fixtures.sealed("""
        {"task":"\(task.rawValue)","set":{"title":["kept","0000000000010000"],"colour":["red","0000000000010000"],"importance":[7,"0000000000010000"],"duration":[1.5,"0000000000010000"],"category":["ok","nonsense"]}}
        """)
        let scan = LogDecoder(file: "f", owner: owner).scan(line, at: 0)
        #expect(scan.records.count == 1)
        // A field this build does not know is an opaque register, kept with its version.
        #expect(scan.records.first?.changes.map(\.field) == [.title, TaskField(rawValue: "colour")!])
        #expect(scan.records.first?.changes.last?.value == .string("red"))
        #expect(scan.issues.count == 3)
        #expect(scan.issues.allSatisfy { if case .invalidField = $0.kind { true } else { false } })
    }

    @Test func anIncompleteLastLineIsLeftForLater() {
        let record = LogRecord(task: Fixtures.task(1), changes: [Fixtures.change(Fixtures.task(1), .title, .string("one"), Fixtures.version(1))])
        let line = record.encodedLine(owner: owner)
        let bytes = line + line.prefix(20)
        let scan = LogDecoder(file: "f", owner: owner).scan(bytes, at: 50)
        #expect(scan.records == [record])
        #expect(scan.end == 50 + Int64(line.count))
    }

    @Test func headersThatCannotBeReadSayWhy() {
        func issue(_ bytes: [UInt8]) -> LogIssue.Kind? {
            if case .failure(let issue) = LogDecoder.header(in: bytes, file: "f") { return issue.kind }
            return nil
        }
        #expect(issue([]) == .emptyFile)
        var random = SystemRandomNumberGenerator()
        let noise = (0..<5_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        if case .notALog = issue(noise + [0x0A]) {} else { Issue.record("random bytes taken for a header") }
        if case .notALog = issue(Array("{\"format\":\"other\",\"version\":1}\n".utf8)) {} else { Issue.record("foreign format accepted") }
        #expect(issue(Array("{\"format\":\"nextup-log\",\"version\":2,\"replica\":\"x\",\"whatever\":true}\n".utf8)) == .newerVersion(2))
        // A valid header with a corrupted byte.
        var header = LogHeader(replica: owner, created: 1).encodedLine()
        header[header.count - 25] = UInt8(ascii: "Z")
        if case .notALog = issue(header) {} else { Issue.record("damaged header accepted") }
    }

    @Test func fileNamesAreClassified() {
        let id = Fixtures.replicaB.rawValue
        #expect(PeerFileName.classify("nextup-\(id).log") == .log(Fixtures.replicaB))
        #expect(PeerFileName.classify("nextup-\(id).sync-conflict-20241103-101112-ABCDEFG.log") == .conflictCopy(of: Fixtures.replicaB))
        #expect(PeerFileName.classify("nextup-\(id) (Alice's conflicted copy 2024-11-03).log") == .conflictCopy(of: Fixtures.replicaB))
        #expect(PeerFileName.classify("nextup-\(id) (conflicted copy 2024-11-03 101112).log") == .conflictCopy(of: Fixtures.replicaB))
        #expect(PeerFileName.classify("nextup-\(id).sync-conflict-20241103-101112-ABCDEFG.log.merged") == .ignored)
        #expect(PeerFileName.classify(".syncthing.nextup-\(id).log.tmp") == .ignored)
        #expect(PeerFileName.classify("~syncthing~nextup-\(id).log.tmp") == .ignored)
        #expect(PeerFileName.classify(".nextup-1234.tmp") == .ignored)
        #expect(PeerFileName.classify("notes.txt") == .ignored)
        #expect(PeerFileName.classify("nextup-hello.log") == .unrecognisedLog)
        #expect(PeerFileName.classify("nextup-\(id.uppercased()).log") == .unrecognisedLog)
    }
}
