import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpSync

/// Mutation fuzzing of the peer-log reader (issue 15): damaged logs — bit
/// flips, truncations, repeated and deleted ranges, splices of two logs — are
/// read without a crash or a hang, and the only records accepted are records
/// some writer wrote: a damaged line is skipped and reported, never merged.
@Suite struct LogFuzzTests {
    static func corpus() -> (files: [[UInt8]], written: Set<LogRecord>) {
        var rng = SeededRandom(seed: 0x106F_0001)
        var files: [[UInt8]] = []
        var written: Set<LogRecord> = []
        for (k, owner) in [Fixtures.replicaA, Fixtures.replicaB, Fixtures.replicaC].enumerated() {
            var bytes = LogHeader(replica: owner, generation: "0000000\(k)-feed-4000-8000-000000000000", created: 1_795_000_000_000).encodedLine()
            for n in 0..<25 {
                let task = Fixtures.task(k * 100 + n)
                var changes = [Fixtures.change(task, .title, .string("Task \(n) “\(k)” 🧪 \\ \"q\""), Fixtures.version(1_795_000_000_000 + Int64(n), owner))]
                if rng.chance(0.5) { changes.append(Fixtures.change(task, .importance, .int(Int64(n % 3 + 1)), Fixtures.version(1_795_000_000_000 + Int64(n), owner, counter: 2))) }
                if rng.chance(0.5) { changes.append(Fixtures.change(task, .urgency, .string(n % 2 == 0 ? "urgent" : "not-urgent"), Fixtures.version(1_795_000_000_100, owner))) }
                if rng.chance(0.3) { changes.append(Fixtures.change(task, .notes, .string(String(repeating: "n", count: n * 40 + 1)), Fixtures.version(1_795_000_000_200, owner))) }
                let record = LogRecord(task: task, changes: changes)
                written.insert(record)
                bytes += record.encodedLine(owner: owner)
            }
            files.append(bytes)
        }
        return (files, written)
    }

    static func withoutReplica(_ record: LogRecord) -> [String] {
        record.changes.map { "\($0.task)|\($0.field.rawValue)|\($0.value)|\($0.version.timestamp)" }
    }

    @Test func damagedLogsAreReadWithoutACrashAndOnlyWrittenRecordsAreAccepted() {
        let (files, encoded) = Self.corpus()
        // The undamaged files read whole, with no issue (the check below means
        // something); what they read as is what the writers wrote.
        var read: Set<LogRecord> = []
        for file in files {
            guard case .success(let (header, end)) = LogDecoder.header(in: file, file: "f") else {
                Issue.record("the corpus header does not read"); return
            }
            let scan = LogDecoder(file: "f", owner: header.replica).scan(file[Int(end)...], at: end)
            #expect(scan.issues.isEmpty && scan.records.count == 25, "\(scan.issues)")
            read.formUnion(scan.records)
        }
        #expect(read.count == encoded.count)
        // A line carries no replica id: its writer is the file's owner, so a
        // line moved into another replica's log (a splice) reads as that
        // replica's. What must never happen is a value, field, task or time
        // that no writer wrote: compare without the replica.
        let written = Set(read.map(Self.withoutReplica))
        let outcome = Fuzz.run(cases: Fuzz.cases(default: 2000), seed: Fuzz.seed(0x106F_00F2), corpus: files) { input in
            var offset: Int64 = 0
            var owner = Fixtures.replicaA
            if case .success(let (header, end)) = LogDecoder.header(in: input, file: "f") {
                owner = header.replica
                offset = end
                if end < 0 || end > Int64(input.count) { return "header end \(end) outside the file" }
            }
            // Both paths of the decoder: the byte reader of the written form,
            // and (for one input in four: it is slow) the general JSON one.
            var readers = [LogDecoder(file: "f", owner: owner)]
            if input.count % 4 == 0 { readers.append({ var d = LogDecoder(file: "f", owner: owner); d.readsWrittenForm = false; return d }()) }
            for reader in readers {
                let scan = reader.scan(input[Int(offset)...], at: offset)
                if scan.records.count != scan.recordEnds.count { return "\(scan.records.count) records but \(scan.recordEnds.count) ends" }
                if scan.end < offset || scan.end > Int64(input.count) { return "scan end \(scan.end) outside \(offset)…\(input.count)" }
                if zip(scan.recordEnds, scan.recordEnds.dropFirst()).contains(where: { $0 >= $1 }) { return "record ends not increasing" }
                if let foreign = scan.records.first(where: { !written.contains(Self.withoutReplica($0)) }) {
                    return "accepted a record no writer wrote: \(foreign)"
                }
            }
            return nil
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        print("fuzz peer log: \(outcome.ran) cases in \(String(format: "%.2f", outcome.seconds)) s, slowest \(String(format: "%.3f", outcome.slowest)) s")
    }
}

