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

/// The checksum, the UTF-8 check and the version digits are read on bytes
/// in place; each must answer what its plain definition answers.
@Suite struct LogByteShortcutTests {
    /// CRC-32 one byte at a time, as defined (the slicing tables must agree with it).
    static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    @Test func crc32IsTheDefinedOne() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        var rng = SeededRandom(seed: 0xC4C)
        for length in Array(0...40) + [63, 64, 65, 255, 1_000, 4_097] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            #expect(CRC32.checksum(bytes) == Self.reference(bytes), "length \(length)")
            #expect(CRC32.checksum(bytes[...].dropFirst(length > 0 ? 1 : 0)) == Self.reference(Array(bytes.dropFirst(length > 0 ? 1 : 0))))
            let last = UInt8.random(in: 0...255, using: &rng)
            #expect(bytes.withUnsafeBytes { CRC32.checksum($0, then: last) } == Self.reference(bytes + [last]))
        }
    }

    @Test func utf8CheckIsStringsOwn() {
        var rng = SeededRandom(seed: 0x07F8)
        let samples: [[UInt8]] = [[], Array("plain ascii line, long enough for words".utf8), Array("Tüte 🧪".utf8),
                                  [0xC3], [0x41, 0x80, 0x41], [0xF0, 0x9F, 0xA7], [0xED, 0xA0, 0x80], Array(repeating: 0x7F, count: 17)]
        var all = samples
        // ASCII but one byte, at every place of an eight-byte word and of the tail.
        for place in 0..<27 {
            var bytes = Array("an ascii line of twenty-seven".utf8.prefix(27))
            bytes[place] = 0x80 | UInt8(place)
            all.append(bytes)
        }
        for _ in 0..<500 {
            var bytes = Array(LogLineReadingTests.randomString(using: &rng, nonEmpty: false).utf8)
            if !bytes.isEmpty && rng.chance(0.5) { bytes[Int.random(in: bytes.indices, using: &rng)] = UInt8.random(in: 0x80...0xFF, using: &rng) }
            all.append(bytes)
        }
        for bytes in all {
            let line = ([0x20] + bytes)[1...]  // a slice not starting at 0, as a line is
            #expect(LogDecoder.isValidUTF8(line) == (String(validating: line, as: UTF8.self) != nil), "\(bytes)")
        }
    }

    @Test func versionDigitsAreReadAsUInt64Reads() {
        var rng = SeededRandom(seed: 0x16)
        let alphabet = Array("0123456789abcdefABCDEFgz+- ")
        var texts = ["0000018bcfe56800", "ffffffffffffffff", "7fffffffffffffff", "+000018bcfe56800", "-000000000000000", "0000018BCFE56800"]
        for _ in 0..<2_000 {
            texts.append(String((0..<16).map { _ in rng.chance(0.9) ? alphabet[Int.random(in: 0..<16, using: &rng)] : alphabet.randomElement(using: &rng)! }))
        }
        for text in texts {
            #expect(Array(text.utf8.prefix(16)).withUnsafeBufferPointer { LogDecoder.hexDigits($0) } == UInt64(String(text.prefix(16)), radix: 16), "\(text)")
        }
    }

    /// Issues of one line come by field name, and its changes in field
    /// order, whatever order the line lists its fields in.
    @Test func aLinesIssuesComeByNameAndItsChangesInFieldOrder() {
        let task = Fixtures.task(4).rawValue
        let v = "0000018bcfe56800"
        let line = Fixtures.sealed(#"{"task":"\#(task)","set":{"urgency":["bogus","\#(v)"],"title":["t","\#(v)"],"importance":[9,"\#(v)"],"due":["2026-01-02","\#(v)"],"duration":["x","\#(v)"],"notes":["n","zz"]}}"#)
        let scan = LogDecoder(file: "f", owner: Fixtures.replicaA).scan(line, at: 0)
        let named = scan.issues.map { issue in ["duration", "importance", "notes", "urgency"].first { "\(issue.kind)".contains($0) } ?? "\(issue.kind)" }
        #expect(named == ["duration", "importance", "notes", "urgency"])
        #expect(scan.records.first?.changes.map(\.field) == [.title, .due])
    }

    /// A field found by its place in the table is the field of that name.
    @Test func knownFieldsAreFoundByPlaceAsByName() {
        let names = FieldSpec.table.map(\.field.rawValue)
        var next = 0
        for name in names {
            #expect(LogDecoder.knownField(name, from: &next) == TaskField(rawValue: name))
        }
        #expect(next == names.count)
        for name in names.reversed() + ["tag:work", "zzz", "Title", ""] {
            var start = 0
            let found = LogDecoder.knownField(name, from: &start)
            #expect(found == nil || found == TaskField(rawValue: name), "\(name)")
            #expect((found != nil) == (TaskField(rawValue: name)?.isKnown == true), "\(name)")
            // Past its place: not found, left to the name lookup.
            var past = names.count
            #expect(LogDecoder.knownField(name, from: &past) == nil)
        }
    }
}
