import Foundation
import NextUpTestSupport
import Testing
@testable import NextUpCore

/// The byte-level fast paths the benchmark drove (timestamps and dates
/// written on bytes, runs of JSON string copied whole, ASCII widths counted
/// by bytes) give exactly what the general paths give, on random input.
@Suite struct FastPathTests {
    static func reference(_ millis: Int64) -> String {
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let rest = millis - days * 86_400_000
        let d = DueDate(epochDay: days)
        func pad(_ n: Int, _ w: Int) -> String { let s = String(n); return String(repeating: "0", count: max(0, w - s.count)) + s }
        return "\(pad(d.year, 4))-\(pad(d.month, 2))-\(pad(d.day, 2))T\(pad(Int(rest / 3_600_000), 2)):\(pad(Int(rest / 60_000 % 60), 2)):\(pad(Int(rest / 1000 % 60), 2)).\(pad(Int(rest % 1000), 3))Z"
    }

    @Test func timestampsAndDatesMatchTheGeneralFormatting() {
        var random = SeededRandom(seed: 7)
        let edges: [Int64] = [0, -1, 86_399_999, 86_400_000, 253_402_300_799_999, -62_135_596_800_000]
        for millis in edges + (0..<2_000).map({ _ in Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &random) }) {
            #expect(Timestamps.rfc3339(millis) == Self.reference(millis), "\(millis)")
            #expect(Timestamps.parse(Timestamps.rfc3339(millis)) == millis)
        }
    }

    @Test func jsonStringsMatchJSONEncoder() throws {
        var random = SeededRandom(seed: 11)
        // Long plain runs too, so that whole eight-byte words are skipped
        // and an escape falls at every place in a word.
        let pieces = ["a", "é", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "日本", "🎉", "e\u{301}", " ", "\u{7F}", "\r", "\u{8}", "\u{C}",
                      "abcdefgh", "The quick brown fox ", "0123456789", "[]!#~"]
        let encoder = JSONEncoder()
        for _ in 0..<2_000 {
            let s = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            for slashes in [true, false] {
                encoder.outputFormatting = slashes ? [] : [.withoutEscapingSlashes]
                var out: [UInt8] = []
                JSONBytes.appendString(s, to: &out, escapingSlashes: slashes)
                #expect(out == Array(try encoder.encode(s)), "\(s.debugDescription)")
            }
        }
    }

    @Test func aWordSaidToNeedNoEscapeHasNoByteThatNeedsOne() {
        var random = SeededRandom(seed: 17)
        let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x2E, 0x2F, 0x30, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF]
        var skipped = 0
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in random.chance(0.5) ? edges.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random) }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            for slashes in [true, false] {
                let needs = bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || (slashes && $0 == 0x2F) }
                if !JSONBytes.mayNeedEscape(word, escapingSlashes: slashes) {
                    skipped += 1
                    #expect(!needs, "\(bytes) slashes: \(slashes)")
                } else if !needs {
                    // A false alarm is allowed, but a word of plain text is skipped.
                }
            }
        }
        #expect(skipped > 1_000)
        #expect(!JSONBytes.mayNeedEscape(Array("abcdefgh".utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }, escapingSlashes: true))
    }

    @Test func asciiWidthsAreCountedAsTheGeneralPathCountsThem() {
        var random = SeededRandom(seed: 13)
        let pieces = ["a", "Z", " ", "~", "é", "ß", "\u{AD}", "日", "🎉", "e\u{301}", "\u{7F}", "\u{9}", "Ω", "\u{200B}"]
        for _ in 0..<2_000 {
            let s = (0..<Int.random(in: 0...10, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(TerminalWidth.width(of: s) == s.reduce(0) { $0 + TerminalWidth.width(of: $1) })
        }
        #expect(TerminalWidth.width(of: "plain ascii") == 11)
        #expect(TerminalWidth.width(of: "\u{AD}") == 1)
        #expect(TerminalWidth.width(of: "é") == 1)
        #expect(TerminalWidth.width(of: "日本") == 4)
    }
}
