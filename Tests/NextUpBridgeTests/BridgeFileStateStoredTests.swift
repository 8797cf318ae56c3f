import Foundation
import NextUpTestSupport
import Testing
@testable import NextUpBridge

/// The bridge's memory of a file reads back as the state written, and a
/// memory from before stamps still reads.
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

    @Test func theStoredTextReadsBackAsTheStateWritten() throws {
        var rng = SeededRandom(seed: 0xB41D6E)
        for _ in 0..<500 {
            let state = Self.state(&rng)
            let text = try #require(state.storedText)
            #expect(BridgeFileState(storedText: text) == state, "\(text)")
            #expect(state.storedText == BridgeFileState(storedText: text)?.storedText, "an unchanged state is stored as the same text")
        }
    }

    @Test func aMemoryFromBeforeStampsReadsWithoutOne() throws {
        var rng = SeededRandom(seed: 0x5702ED)
        var state = Self.state(&rng)
        state.stamp = FileStamp(device: 1, inode: 2, size: 3, modified: 4, changed: 5)
        let written = try #require(state.storedText)
        let range = try #require(written.range(of: ",\"stamp\":{"))
        let end = try #require(written[range.upperBound...].firstIndex(of: "}"))
        let old = String(written[..<range.lowerBound] + written[written.index(after: end)...])
        state.stamp = nil
        #expect(BridgeFileState(storedText: old) == state)
        #expect(BridgeFileState(storedText: String(written.dropLast(3))) == nil, "damage reads as no memory")
    }
}
