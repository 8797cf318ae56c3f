import NextUpTestSupport
import Foundation
import NextUpCore
import Testing
@testable import NextUpSync

/// Log lines in the form the writer produces are read on bytes; the result
/// must be exactly what the JSONDecoder path gives, and any other spelling
/// or damage must still go through (and be judged by) the old path.
@Suite struct LogLineReadingTests {
    let owner = Fixtures.replicaA

    /// Decodes `bytes` twice: on the byte path (default) and JSONDecoder only.
    func bothWays(_ bytes: [UInt8]) -> (fast: LogScan, slow: LogScan) {
        let fast = LogDecoder(file: "f", owner: owner)
        var slow = LogDecoder(file: "f", owner: owner)
        slow.readsWrittenForm = false
        return (fast.scan(bytes, at: 7), slow.scan(bytes, at: 7))
    }

    func expectSame(_ a: LogScan, _ b: LogScan, _ note: String = "") {
        #expect(a.records == b.records, "\(note)")
        #expect(a.recordEnds == b.recordEnds, "\(note)")
        #expect(a.issues == b.issues, "\(note)")
        #expect(a.end == b.end, "\(note)")
    }

    static let scalars: [String] = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{7}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}",
        "é", "ß", "漢", "字", "Ж", "ع", "Ω", "\u{2028}", "\u{FEFF}", "🧪", "👩‍💻", "🇫🇷", "e\u{301}",
    ]

    static func randomString(using rng: inout SeededRandom, nonEmpty: Bool) -> String {
        let count = Int.random(in: (nonEmpty ? 1 : 0)...12, using: &rng)
        return (0..<count).map { _ in scalars.randomElement(using: &rng)! }.joined()
    }

    static func randomValue(for field: TaskField, using rng: inout SeededRandom) -> FieldValue {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int([Int64.max, Int64.min, 0, -1, 1, Int64.max - 1, Int64.min + 1].randomElement(using: &rng)!)
        case 3: return .int(Int64.random(in: Int64.min...Int64.max, using: &rng))
        case 4: return .int(Int64.random(in: 1...5, using: &rng))
        default: return .string(randomString(using: &rng, nonEmpty: field == .title))
        }
    }

    @Test func generatedLinesDecodeTheSameBothWays() {
        var rng = SeededRandom(seed: 0x5EED_106)
        var lines: [UInt8] = []
        var count = 0
        for n in 0..<400 {
            let task = Fixtures.task(n)
            let fields = TaskField.known.filter { _ in rng.chance(0.5) }
            let changes = (fields.isEmpty ? [.title] : fields).map { field in
                Fixtures.change(task, field, Self.randomValue(for: field, using: &rng),
                                Fixtures.version(Int64.random(in: 0...(1 << 46), using: &rng),
                                                 [Fixtures.replicaA, Fixtures.replicaB, Fixtures.replicaC].randomElement(using: &rng)!,
                                                 counter: Int64.random(in: 0...0xFFFF, using: &rng)))
            }
            let line = LogRecord(task: task, changes: changes).encodedLine(owner: owner)
            #expect(LogDecoder.readWritten(line.dropLast()) != nil, "written form not read on bytes: \(String(decoding: line, as: UTF8.self))")
            lines += line
            count += 1
        }
        let (fast, slow) = bothWays(lines)
        expectSame(fast, slow)
        // Values the fields do not accept are reported, not dropped silently, on both paths.
        #expect(fast.records.count + fast.issues.count >= count)
        #expect(!fast.issues.isEmpty)
    }

    @Test func otherSpellingsFallBackAndDecodeTheSame() {
        let task = Fixtures.task(3).rawValue
        let v = "0000018bcfe56800"
        let objects = [
            #"{"task":"\#(task)","set":{"title":["Pay rent","\#(v)"]}}"#,                      // the written form
            #"{"set":{"title":["Pay rent","\#(v)"]},"task":"\#(task)"}"#,                      // key order
            #"{"task": "\#(task)", "set": {"title": ["Pay rent", "\#(v)"]}}"#,                 // white space
            #"{"task":"\#(task)","set":{"title":["\u0050ay","\#(v)"]}}"#,                      // \u escape of a letter
            #"{"task":"\#(task)","set":{"title":["\ud83e\uddea","\#(v)"]}}"#,                  // surrogate pair
            #"{"task":"\#(task)","set":{"importance":[3.0,"\#(v)"]}}"#,                        // fraction
            #"{"task":"\#(task)","set":{"importance":[03,"\#(v)"]}}"#,                         // leading zero
            #"{"task":"\#(task)","set":{"importance":[1e0,"\#(v)"]}}"#,                        // exponent
            #"{"task":"\#(task)","set":{"done":[-0,"\#(v)"]}}"#,                               // -0
            #"{"task":"\#(task)","set":{"done":[9223372036854775808,"\#(v)"]}}"#,              // Int64.max + 1
            #"{"task":"\#(task)","set":{"done":[-9223372036854775809,"\#(v)"]}}"#,             // Int64.min - 1
            #"{"task":"\#(task)","set":{"title":["a","\#(v)"],"title":["b","\#(v)"]}}"#,      // repeated key
            #"{"task":"\#(task)","set":{"title":["a","\#(v)",1]}}"#,                          // three elements
            #"{"task":"\#(task)","set":{"title":["a",5]}}"#,                                   // version not a string
            #"{"task":"\#(task)","set":{"bogus":["a","\#(v)"],"title":["a","\#(v)"]}}"#,      // unknown field
            #"{"task":"\#(task)","set":{}}"#,                                                  // no changes
            #"{"task":"\#(task)","set":{"title":["a","\#(v)"]},"extra":1}"#,                   // extra member
            #"{"task":"not-an-id","set":{"title":["a","\#(v)"]}}"#,                            // bad id
            #"{"task":"\#(task)"}"#,                                                           // no set
            #"{"task":[1,2],"set":{"title":["a","\#(v)"]}}"#,                                  // task not a string
        ]
        for object in objects {
            let (fast, slow) = bothWays(Fixtures.sealed(object))
            expectSame(fast, slow, object)
        }
        #expect(bothWays(Fixtures.sealed(objects[0])).fast.records.count == 1)
        #expect(bothWays(Fixtures.sealed(objects[1])).fast.records.count == 1)
        #expect(bothWays(Fixtures.sealed(objects[6])).fast.records.isEmpty)
    }

    @Test func damagedWrittenLinesAreStillRejected() {
        var rng = SeededRandom(seed: 42)
        let task = Fixtures.task(9)
        let record = LogRecord(task: task, changes: [
            Fixtures.change(task, .title, .string("Tüte 🧪 \"x\"\n"), Fixtures.version(5)),
            Fixtures.change(task, .done, .int(Int64.max), Fixtures.version(6, Fixtures.replicaB)),
        ])
        let line = Array(record.encodedLine(owner: owner).dropLast())
        let decoder = LogDecoder(file: "f", owner: owner)
        for _ in 0..<300 {
            var damaged = line
            let index = Int.random(in: damaged.indices, using: &rng)
            let replacement = UInt8.random(in: 0...255, using: &rng)
            if replacement == damaged[index] || replacement == 0x0A { continue }
            damaged[index] = replacement
            var scan = LogScan(end: 0)
            decoder.decodeLine(damaged[...], at: 0, into: &scan)
            #expect(scan.records.isEmpty)
            #expect(!scan.issues.isEmpty)
        }
    }
}
