import Foundation
import NextUpTestSupport
import Testing
@testable import NextUpBridge

/// The bridge's memory of a file, read on its bytes in the form the bridge
/// writes it, and by `JSONDecoder` in any other: both readings must agree
/// for every text.
@Suite struct BridgeFileStateStoredTests {
    static let pool: [String] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{01}", "\u{1F}", "\u{7F}",
                                 "é", "Привет", "日本語", "👩‍💻", "🇫🇷", "\u{FEFF}", ":", ",", "{", "}", "[", "]"]

    static func text(_ rng: inout SeededRandom, max: Int = 12) -> String {
        (0..<Int.random(in: 0...max, using: &rng)).map { _ in pool.randomElement(using: &rng)! }.joined()
    }

    static func state(_ rng: inout SeededRandom) -> BridgeFileState {
        var view = VTodoView(uid: text(&rng), title: text(&rng))
        view.notes = text(&rng, max: 30)
        if rng.chance(0.5) { view.importance = Int.random(in: 1...3, using: &rng) }
        if rng.chance(0.3) { view.due = "2027-0\(Int.random(in: 1...9, using: &rng))-1\(Int.random(in: 0...9, using: &rng))" }
        if rng.chance(0.3) { view.completedAt = Int64.random(in: -1_000...2_000_000_000_000, using: &rng) }
        view.cancelled = rng.chance(0.2)
        view.categories = (0..<Int.random(in: 0...3, using: &rng)).map { _ in text(&rng) }
        for ext in VTodoView.Extension.allCases where rng.chance(0.6) { view[ext] = text(&rng, max: 4) }
        if rng.chance(0.1) { view.extensions[text(&rng)] = text(&rng) }
        let stamp = rng.chance(0.8)
            ? FileStamp(device: UInt64.random(in: 0...UInt64(Int64.max), using: &rng), inode: UInt64.random(in: 0...1 << 40, using: &rng),
                        size: Int64.random(in: 0...1 << 20, using: &rng), modified: Int64.random(in: .min ... .max, using: &rng),
                        changed: Int64.random(in: 0 ... .max, using: &rng))
            : nil
        return BridgeFileState(file: text(&rng) + ".ics", hash: text(&rng), view: view, sequence: Int.random(in: 0...Int(Int32.max), using: &rng),
                               gone: rng.chance(0.1), complete: rng.chance(0.8), stamp: stamp)
    }

    static func decoded(_ text: String) -> BridgeFileState? {
        try? JSONDecoder().decode(BridgeFileState.self, from: Data(text.utf8))
    }

    /// What the bridge writes is read on its bytes (never by the fallback),
    /// and it is the state that was written.
    @Test func theWrittenFormIsReadOnItsBytes() throws {
        var rng = SeededRandom(seed: 0xB41D6E)
        for _ in 0..<2_000 {
            let state = Self.state(&rng)
            var text = try #require(state.storedText)
            let fast = text.withUTF8 { BridgeFileState.readWritten($0) }
            #expect(fast == state, "\(text)")
            #expect(BridgeFileState(storedText: text) == state)
            #expect(Self.decoded(text) == state)
        }
    }

    /// Any other text — another writer's layout, an older memory, a number
    /// beyond Int64, escapes the writer does not use, damage — reads exactly
    /// as `JSONDecoder` reads it.
    @Test func everyOtherTextReadsAsJSONDecoderReadsIt() throws {
        var rng = SeededRandom(seed: 0x5702ED)
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted]
        var variants = 0, readByFallback = 0
        for _ in 0..<300 {
            let state = Self.state(&rng)
            let written = try #require(state.storedText)
            var texts = [
                String(decoding: try pretty.encode(state), as: UTF8.self),
                written.replacingOccurrences(of: ",\"view\":", with: ", \"view\" :"),
                written.replacingOccurrences(of: "{\"complete\":", with: "{\"extra\":1,\"complete\":"),
                written.replacingOccurrences(of: "\"inode\":", with: "\"inode\":18446744073709551615,\"x\":"),
                written.replacingOccurrences(of: "\"uid\":\"", with: "\"uid\":\"\\u00e9"),
                written.replacingOccurrences(of: "\"extensions\":{", with: "\"extensions\":{\"K\":\"1\",\"K\":\"2\","),
                written.replacingOccurrences(of: "\"sequence\":", with: "\"sequence\":1.5,\"s\":"),
                String(written.dropLast(Int.random(in: 1...20, using: &rng))),
            ]
            if let range = written.range(of: ",\"stamp\":{") {
                // A memory from before stamps.
                let end = written[range.upperBound...].firstIndex(of: "}")!
                texts.append(String(written[..<range.lowerBound] + written[written.index(after: end)...]))
            }
            for text in texts {
                variants += 1
                var t = text
                if t.withUTF8({ BridgeFileState.readWritten($0) }) == nil, Self.decoded(text) != nil { readByFallback += 1 }
                #expect(BridgeFileState(storedText: text) == Self.decoded(text), "\(text)")
            }
        }
        // The variants do reach the fallback, and it reads them.
        #expect(readByFallback > variants / 3)
    }
}
