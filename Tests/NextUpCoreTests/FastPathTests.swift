import Foundation
import NextUpTestSupport
import Testing
@testable import NextUpCore

/// Text written on bytes (timestamps, JSON strings, ASCII widths) is what
/// the general formatting gives, on random input.
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
        let pieces = ["a", "é", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "日本", "🎉", "e\u{301}", " ", "\u{7F}", "\r", "\u{8}", "\u{C}",
                      "abcdefgh", "The quick brown fox ", "0123456789", "[]!#~"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for _ in 0..<2_000 {
            let s = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var out: [UInt8] = []
            JSONText.appendString(s, to: &out)
            #expect(out == Array(try encoder.encode(s)), "\(s.debugDescription)")
        }
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
