import Foundation
import NextUpCore
import Testing
@testable import NextUpCLI

/// Import files are read on bytes when they are plain task arrays; the result
/// must equal JSONDecoder's, and anything else must go to JSONDecoder (whose
/// messages the command prints).
@Suite struct TaskJSONReaderTests {
    static let pieces = ["a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}",
                         "é", "漢", "Ж", "ع", "\u{2028}", "\u{FEFF}", "🧪", "👩‍💻", "🇫🇷", "e\u{301}"]

    static func randomText(_ rng: inout SystemRandomNumberGenerator) -> String {
        (0..<Int.random(in: 0...10, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    static func randomTasks(count: Int) -> [TaskJSON] {
        var rng = SystemRandomNumberGenerator()
        func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &rng) ? make() : nil }
        return (0..<count).map { _ in
            var t = TaskJSON(title: randomText(&rng))
            t.id = maybe { UUID().uuidString.lowercased() }
            t.notes = maybe { randomText(&rng) }
            t.urgency = maybe { randomText(&rng) }
            t.importance = maybe { [Int.max, Int.min, 0, -1, 3, Int.random(in: Int.min...Int.max, using: &rng)].randomElement(using: &rng)! }
            t.duration = maybe { Int.random(in: -5...100_000, using: &rng) }
            t.category = maybe { randomText(&rng) }
            t.due = maybe { "2026-12-30" }
            t.done = maybe { Bool.random(using: &rng) }
            t.nextUp = maybe { Bool.random(using: &rng) }
            t.deleted = maybe { Bool.random(using: &rng) }
            t.created = maybe { "2025-03-28T18:49:29.927Z" }
            t.modified = maybe { randomText(&rng) }
            t.completedAt = maybe { randomText(&rng) }
            t.source = maybe { randomText(&rng) }
            t.externalID = maybe { randomText(&rng) }
            return t
        }
    }

    @Test(arguments: [JSONEncoder.OutputFormatting(), [.prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
                      [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]])
    func readsWhatJSONDecoderReads(_ formatting: JSONEncoder.OutputFormatting) throws {
        let tasks = Self.randomTasks(count: 300)
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        let data = try encoder.encode(tasks)
        let fast = try #require(TaskJSONReader.read(data))
        #expect(fast == (try JSONDecoder().decode([TaskJSON].self, from: data)))
        #expect(fast.count == tasks.count && zip(fast, tasks).allSatisfy { $0.title == $1.title && $0.importance == $1.importance })
        // Our own export, with explicit nulls, reads the same way.
        let exported = Data(try JSONOutput.string(tasks.map { _ in TaskItem(id: .make()) }, pretty: true).utf8)
        #expect(TaskJSONReader.read(exported) == (try JSONDecoder().decode([TaskJSON].self, from: exported)))
    }

    @Test func nullsAndWhiteSpaceAreRead() throws {
        let text = " \n[ {\"title\" : \"x\\u0001\\/\", \"id\": null, \"importance\":-9223372036854775808 ,\"done\":null},\r\n\t{\"title\":\"y\"} ] \n"
        let data = Data(text.utf8)
        #expect(TaskJSONReader.read(data) == (try JSONDecoder().decode([TaskJSON].self, from: data)))
        #expect(TaskJSONReader.read(Data("[]".utf8)) == [])
    }

    @Test func anythingElseIsLeftToJSONDecoder() {
        let odd = [
            "", "{}", "[", "[{}]", #"[{"title":null}]"#, #"[{"title":"a","title":"b"}]"#, #"[{"title":"a","extra":1}]"#,
            #"[{"title":"a","importance":2.0}]"#, #"[{"title":"a","importance":1e1}]"#, #"[{"title":"a","importance":"2"}]"#,
            #"[{"title":"a","importance":9223372036854775808}]"#, #"[{"title":"a","done":1}]"#, #"[{"title":"\u00e9"}]"#,
            #"[{"title":"a"}] x"#, #"[{"title":"a"},]"#, #"[{"title":"a",}]"#, "\u{FEFF}[]", #"[{"title":"a"}"#,
            #"[{"title":"a","notes":true}]"#, #"[{"title":"a","importance":01}]"#,
        ]
        for text in odd {
            #expect(TaskJSONReader.read(Data(text.utf8)) == nil, "\(text)")
        }
        #expect(TaskJSONReader.read(Data([0x5B, 0x7B, 0x22, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D, 0x5D])) == nil)
    }

    /// Keys are matched on their bytes: every key of the reader, each once,
    /// reads as JSONDecoder reads it; a key spelled with escapes, a prefix
    /// of a key, a longer name or other bytes are left to JSONDecoder.
    @Test func keysAreMatchedOnTheirBytes() throws {
        let all = Data(#"[{"id":null,"title":"a","notes":"n","urgency":null,"importance":2,"duration":null,"category":"c","due":null,"done":false,"next_up":true,"deleted":null,"created":null,"modified":null,"completed_at":null,"source":"s","external_id":"e","tags":["t"],"versions":{}}]"#.utf8)
        #expect(TaskJSONReader.read(all) == (try JSONDecoder().decode([TaskJSON].self, from: all)))
        #expect(TaskJSONReader.read(all)?.first?.externalID == "e")
        // The key after the last one is tried first: any other order, and a
        // repeat of an earlier key, are still read (or refused) as before.
        let reversed = Data(#"[{"versions":{},"tags":["t"],"external_id":"e","source":"s","completed_at":null,"modified":null,"created":null,"deleted":null,"next_up":true,"done":false,"due":null,"category":"c","duration":null,"importance":2,"urgency":null,"notes":"n","title":"a","id":null}]"#.utf8)
        #expect(TaskJSONReader.read(reversed) == TaskJSONReader.read(all))
        // "created" stands where "urgency" (as long) is expected.
        let skipping = Data(#"[{"title":"a","notes":"n","created":"2025-03-28T18:49:29.927Z"}]"#.utf8)
        #expect(TaskJSONReader.read(skipping) == (try JSONDecoder().decode([TaskJSON].self, from: skipping)))
        for text in [#"[{"id":null,"title":"a","id":null}]"#, #"[{"title":"a","notes":"n","title":"b"}]"#] {
            #expect(TaskJSONReader.read(Data(text.utf8)) == nil, "\(text)")
        }
        for text in [#"[{"ti\u0074le":"a"}]"#, #"[{"title":"a","ti\u0074le":"b"}]"#, #"[{"titl":"a"}]"#, #"[{"titles":"a"}]"#,
                     #"[{"title":"a","nötes":"n"}]"#, #"[{"title":"a","id\n":"x"}]"#, #"[{"title":"a","tags":[],"tags":[]}]"#] {
            #expect(TaskJSONReader.read(Data(text.utf8)) == nil, "\(text)")
        }
    }
    /// A large file is read in two halves at once, split at the first `}`,
    /// `,`, `{` after its middle: it reads as JSONDecoder reads it — split
    /// there when no string holds such a run, and also when strings
    /// everywhere look like a split, or when the split found lies inside a
    /// string (the halves then refuse, and the file is read whole).
    @Test func aLargeFileIsReadInHalvesAsJSONDecoderReadsIt() throws {
        let plain = Self.randomTasks(count: 3_000)  // no braces in any string
        var tricky = plain
        for i in stride(from: 0, to: tricky.count, by: 5) {
            tricky[i].title = "x }, { y"
            tricky[i].notes = "}, {\"title\": \"z\"}, {"
        }
        for formatting in [JSONEncoder.OutputFormatting(), [.prettyPrinted]] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            for (tasks, splits) in [(plain, true), (tricky, false)] {
                let data = try encoder.encode(tasks)
                #expect(data.count >= JSONByteReader.halvesFrom)
                let halves = data.withUnsafeBytes { TaskJSONReader.readInHalves($0.bindMemory(to: UInt8.self)) }
                if splits { #expect(halves != nil) }
                let decoded = try JSONDecoder().decode([TaskJSON].self, from: data)
                #expect(halves == nil || halves == decoded)
                #expect(TaskJSONReader.read(data) == decoded)
            }
        }
        // The middle falls in a long title holding a split: the halves refuse it.
        var around = (0..<20).map { TaskJSON(title: "t\($0)") }
        around[10].title = String(repeating: "p", count: 300_000) + "}, {" + String(repeating: "q", count: 10)
        let data = try JSONEncoder().encode(around)
        #expect(data.withUnsafeBytes { TaskJSONReader.readInHalves($0.bindMemory(to: UInt8.self)) } == nil)
        let read = TaskJSONReader.read(data)
        #expect(read?.map(\.title) == around.map(\.title))
        #expect(read == (try JSONDecoder().decode([TaskJSON].self, from: data)))
    }
}
