import Foundation
import NextUpCore
import Testing
@testable import NextUpSync

/// Reading and writing whole log files, through both peer-folder kinds.
@Suite struct LogFileTests {
    let owner = Fixtures.replicaA

    private func record(_ n: Int, _ title: String) -> LogRecord {
        LogRecord(task: Fixtures.task(n), changes: [Fixtures.change(Fixtures.task(n), .title, .string(title), Fixtures.version(Int64(n)))])
    }

    private func readAll(_ folder: any PeerFolder, _ name: String, chunkSize: Int = 2 * LogFormat.maxLineLength) throws -> (LogHeader, [LogRecord], [LogIssue], LogFileReader.Outcome) {
        let reader = LogFileReader(folder: folder, chunkSize: chunkSize)
        let (header, start) = try reader.header(of: name).get()
        var records: [LogRecord] = []
        var issues: [LogIssue] = []
        let size = try #require(try folder.info(name)).size
        let outcome = try reader.readLines(of: name, owner: header.replica, from: start, upTo: size) { scan in
            records += scan.records
            issues += scan.issues
        }
        return (header, records, issues, outcome)
    }

    @Test(arguments: PeerFolderKind.allCases)
    func writerStartsTheFileWithAHeaderAndAppends(_ kind: PeerFolderKind) throws {
        let fixture = try PeerFolderFixture(kind)
        let writer = LogWriter(folder: fixture.folder, owner: owner)
        let header = LogHeader(replica: owner, created: 1)
        try writer.append([record(1, "one")], header: header)
        let size = try writer.append([record(2, "two"), record(3, "three")], header: LogHeader(replica: owner, created: 2))
        let (readHeader, records, issues, outcome) = try readAll(fixture.folder, writer.fileName)
        #expect(readHeader == header)
        #expect(records == [record(1, "one"), record(2, "two"), record(3, "three")])
        #expect(issues.isEmpty)
        #expect(outcome.end == size)
        // Nothing to append: not a byte written.
        #expect(try writer.append([], header: header) == size)
    }

    @Test func writerRepairsATornTailBeforeAppending() throws {
        let folder = InMemoryPeerFolder()
        let writer = LogWriter(folder: folder, owner: owner)
        let header = LogHeader(replica: owner, created: 1)
        try writer.append([record(1, "one")], header: header)
        folder.tearNextAppend(after: 17)
        #expect(throws: InMemoryPeerFolder.SimulatedCrash.self) { try writer.append([record(2, "two")], header: header) }
        // A reader skips the torn line and reports it.
        let (_, before, _, torn) = try readAll(folder, writer.fileName)
        #expect(before == [record(1, "one")])
        #expect(torn.incompleteTail?.kind == .incompleteLastLine(bytes: 17))
        // The writer's next append cuts it away first.
        try writer.append([record(2, "two")], header: header)
        let (_, after, issues, outcome) = try readAll(folder, writer.fileName)
        #expect(after == [record(1, "one"), record(2, "two")])
        #expect(issues.isEmpty && outcome.incompleteTail == nil)
    }

    @Test func aTornHeaderIsRewrittenWhole() throws {
        let fixture = try PeerFolderFixture(.local)
        let writer = LogWriter(folder: fixture.folder, owner: owner)
        let header = LogHeader(replica: owner, created: 1)
        try fixture.folder.append(Array(header.encodedLine().prefix(30)), to: writer.fileName, truncatingTo: nil)
        try writer.append([record(1, "one")], header: header)
        let (readHeader, records, issues, _) = try readAll(fixture.folder, writer.fileName)
        #expect(readHeader == header)
        #expect(records == [record(1, "one")])
        #expect(issues.isEmpty)
    }

    @Test func aTenMegabyteLineIsSkippedAndLaterLinesStillRead() throws {
        let folder = InMemoryPeerFolder()
        let name = LogFormat.fileName(for: owner)
        var bytes = LogHeader(replica: owner, created: 1).encodedLine()
        bytes += record(1, "before").encodedLine(owner: owner)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 10 * 1024 * 1024) + [0x0A]
        bytes += record(2, "after").encodedLine(owner: owner)
        folder.put(name, bytes)
        let (_, records, issues, outcome) = try readAll(folder, name)
        #expect(records == [record(1, "before"), record(2, "after")])
        #expect(issues.map(\.kind) == [.lineTooLong(bytes: 10 * 1024 * 1024)])
        #expect(outcome.end == Int64(bytes.count))
        #expect(outcome.incompleteTail == nil)
    }

    @Test func chunkBoundariesDoNotMatter() throws {
        let folder = InMemoryPeerFolder()
        let name = LogFormat.fileName(for: owner)
        let writer = LogWriter(folder: folder, owner: owner)
        let records = (1...300).map { record($0, String(repeating: "t", count: $0 % 97 + 1)) }
        try writer.append(records, header: LogHeader(replica: owner, created: 1))
        // A chunk just over the line limit is the smallest allowed; lines still straddle chunk ends.
        let (_, read, issues, _) = try readAll(folder, name, chunkSize: LogFormat.maxLineLength + 1)
        #expect(read == records)
        #expect(issues.isEmpty)
        var small = LogScan(end: 0)
        // Reading from a middle line boundary gives exactly the rest.
        let all = folder.contents(of: name)!
        let boundaries = all.indices.filter { all[$0] == 0x0A }.map { $0 + 1 }
        let middle = boundaries[150]
        small = LogDecoder(file: name, owner: owner).scan(all[middle...], at: Int64(middle))
        #expect(small.records == Array(records[150...]))
    }

    /// A log of many steps, one of its lines longer than a step: the scans
    /// handed over add up to one scan of the whole file.
    @Test func aLogOfManyStepsReadsAsOneScanOfIt() throws {
        let folder = InMemoryPeerFolder()
        let writer = LogWriter(folder: folder, owner: owner)
        var records = (1...3_000).map { record($0, "task \($0) " + String(repeating: "t", count: $0 % 150)) }
        records[2_000] = LogRecord(task: Fixtures.task(2_001), changes: [
            Fixtures.change(Fixtures.task(2_001), .notes, .string(String(repeating: "ab", count: 45_000)), Fixtures.version(2_001)),
        ])
        try writer.append(records, header: LogHeader(replica: owner, created: 1))
        let all = folder.contents(of: writer.fileName)!
        let reader = LogFileReader(folder: folder, stepSize: 64 * 1024)
        #expect(all.count > 4 * reader.stepSize)
        let (_, headerEnd) = try reader.header(of: writer.fileName).get()
        let whole = LogDecoder(file: writer.fileName, owner: owner).scan(all[Int(headerEnd)...], at: headerEnd)
        #expect(whole.records.count == records.count && whole.issues.isEmpty)
        var scans = 0
        var read: [LogRecord] = []
        var issues: [LogIssue] = []
        var ends: [Int64] = []
        let outcome = try reader.readLines(of: writer.fileName, owner: owner, from: headerEnd, upTo: Int64(all.count)) { scan in
            scans += 1
            read += scan.records
            issues += scan.issues
            ends += scan.recordEnds
        }
        #expect(scans > 4)
        #expect(read == whole.records)
        #expect(ends == whole.recordEnds)
        #expect(issues.isEmpty)
        #expect(outcome.end == Int64(all.count) && outcome.incompleteTail == nil)
    }

    /// Fails every read that starts past `after`.
    final class FailingReadsPeerFolder: ForwardingPeerFolder, @unchecked Sendable {
        struct Failure: Error {}
        let after: Int64
        init(_ inner: any PeerFolder, after: Int64) {
            self.after = after
            super.init(inner)
        }
        override func read(_ name: String, at offset: Int64, count: Int) throws -> [UInt8] {
            if offset > after { throw Failure() }
            return try inner.read(name, at: offset, count: count)
        }
    }

    /// A failed read of a later step is thrown after the steps before it
    /// were consumed, in order.
    @Test func aFailedReadOfALaterStepIsThrownOnceTheStepsBeforeAreConsumed() throws {
        let memory = InMemoryPeerFolder()
        let writer = LogWriter(folder: memory, owner: owner)
        let records = (1...2_000).map { record($0, "task \($0) " + String(repeating: "t", count: 100)) }
        try writer.append(records, header: LogHeader(replica: owner, created: 1))
        let size = Int64(memory.contents(of: writer.fileName)!.count)
        let (_, headerEnd) = try LogFileReader(folder: memory).header(of: writer.fileName).get()
        let reader = LogFileReader(folder: FailingReadsPeerFolder(memory, after: headerEnd), stepSize: 64 * 1024)
        #expect(size > headerEnd + Int64(reader.stepSize))
        var consumed: [LogRecord] = []
        #expect(throws: FailingReadsPeerFolder.Failure.self) {
            try reader.readLines(of: writer.fileName, owner: owner, from: headerEnd, upTo: size) { scan in consumed += scan.records }
        }
        #expect(!consumed.isEmpty)
        #expect(consumed == Array(records.prefix(consumed.count)))
    }

    @Test func lastLineBoundaryFindsTheEndOfTheLastCompleteLine() throws {
        let folder = InMemoryPeerFolder()
        folder.put("f", Array("abc\ndef\nghi".utf8))
        let reader = LogFileReader(folder: folder)
        #expect(try reader.lastLineBoundary(of: "f", size: 11) == 8)
        folder.put("g", Array("no newline at all".utf8))
        #expect(try reader.lastLineBoundary(of: "g", size: 17) == 0)
        folder.put("h", [UInt8](repeating: 0x41, count: 200_000) + [0x0A] + [UInt8](repeating: 0x42, count: 100_000))
        #expect(try reader.lastLineBoundary(of: "h", size: 300_001) == 200_001)
    }
}
