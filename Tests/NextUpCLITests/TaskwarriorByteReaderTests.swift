import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpCLI

/// ``TaskwarriorByteReader`` reads `task export` on bytes and steps aside
/// whenever it is not sure: on any text, its answer (when it gives one) is
/// exactly what the JSONSerialization path gives, and it never accepts what
/// that path refuses.
@Suite struct TaskwarriorByteReaderTests {
    @Test func taskwarriorsOwnExportIsReadOnTheFastPath() throws {
        let data = Data(TaskwarriorReaderTests.export26.utf8)
        let fast = try #require(TaskwarriorByteReader.read(data))
        #expect(fast == (try TaskwarriorReader.readWithFoundation(data)))
        let lines = TaskwarriorReaderTests.export26.split(separator: "\n").filter { $0.hasPrefix("{") }
            .map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }.joined(separator: "\n")
        #expect(TaskwarriorByteReader.read(Data(lines.utf8)) == fast)
    }

    /// Random exports — every attribute kind, odd strings and numbers,
    /// nested UDAs, missing and malformed attributes, repeated keys, white
    /// space, both file forms — read both ways.
    @Test func randomExportsReadTheSameBothWays() throws {
        var rng = SeededRandom(seed: 0x7A5C)
        var fastAnswers = 0, refusals = 0
        for round in 0..<600 {
            let objects = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Self.object(&rng) }
            let text: String
            if rng.chance(0.5) {
                let sep = rng.chance(0.5) ? ",\n" : ","
                text = (rng.chance(0.3) ? " \n" : "") + "[" + objects.joined(separator: sep) + "]" + (rng.chance(0.3) ? "\n" : "")
            } else {
                text = objects.joined(separator: rng.chance(0.2) ? "\n\n" : "\n") + (rng.chance(0.5) ? "\n" : "")
            }
            let data = Data(text.utf8)
            let reference = Result { try TaskwarriorReader.readWithFoundation(data) }
            let fast = TaskwarriorByteReader.read(data)
            switch reference {
            case .success(let tasks):
                if let fast {
                    fastAnswers += 1
                    #expect(fast == tasks, "round \(round): \(text)")
                }
            case .failure:
                refusals += 1
                #expect(fast == nil, "round \(round): accepted what the other path refuses: \(text)")
            }
        }
        // Both sides of the contract were exercised.
        #expect(fastAnswers > 100)
        #expect(refusals > 100)
    }

    static func object(_ rng: inout SeededRandom) -> String {
        var pairs: [(String, String)] = []
        func maybe(_ p: Double, _ key: String, _ value: @autoclosure () -> String) {
            if rng.chance(p) { pairs.append((key, value())) }
        }
        let uuid = rng.chance(0.97) ? "\"\(UUID().uuidString.lowercased())\"" : oddValue(&rng)
        maybe(0.97, "uuid", uuid)
        maybe(0.97, "description", rng.chance(0.9) ? jsonString(text(&rng)) : oddValue(&rng))
        maybe(0.97, "status", rng.chance(0.9) ? jsonString(["pending", "waiting", "completed", "deleted", "recurring"].randomElement(using: &rng)!)
                                               : (rng.chance(0.5) ? "\"done\"" : oddValue(&rng)))
        for key in ["entry", "modified", "end", "due", "wait", "scheduled", "until", "start"] {
            maybe(0.3, key, rng.chance(0.9) ? "\"2026112\(Int.random(in: 0...9, using: &rng))T0805\(Int.random(in: 10...59, using: &rng))Z\"" : oddValue(&rng))
        }
        maybe(0.3, "priority", rng.chance(0.9) ? jsonString(["H", "M", "L"].randomElement(using: &rng)!) : oddValue(&rng))
        maybe(0.3, "project", rng.chance(0.9) ? jsonString(text(&rng)) : oddValue(&rng))
        maybe(0.4, "tags", rng.chance(0.9) ? "[" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in jsonString(text(&rng)) }.joined(separator: ",") + "]" : oddValue(&rng))
        maybe(0.3, "annotations", rng.chance(0.85)
              ? "[" + (0..<Int.random(in: 0...2, using: &rng)).map { _ in
                  rng.chance(0.5) ? #"{"entry":"20261123T080504Z","description":\#(jsonString(text(&rng)))}"#
                                  : #"{"description":\#(jsonString(text(&rng))),"entry":"20261123T080505Z"\#(rng.chance(0.2) ? ",\"x\":1" : "")}"#
              }.joined(separator: ",") + "]"
              : oddValue(&rng))
        maybe(0.5, "id", String(Int.random(in: 0...99, using: &rng)))
        maybe(0.5, "urgency", ["0", "11.2", "-0.4", "5.29685", "1e2"].randomElement(using: &rng)!)
        for uda in ["estimate", "effort", "x_flag", "nested"] { maybe(0.3, uda, oddValue(&rng)) }
        pairs.shuffle(using: &rng)
        if rng.chance(0.05), let first = pairs.first { pairs.append(first) }  // a repeated key
        let ws = rng.chance(0.2) ? " " : ""
        return "{" + pairs.map { "\(jsonString($0.0))\(ws):\(ws)\($0.1)" }.joined(separator: ",\(ws)") + "}"
    }

    static func text(_ rng: inout SeededRandom) -> String {
        let pieces = ["Plan", "the", "week", "Ünïcode", "日本", "👩‍💻", "a/b", "q\"uote", "back\\slash", "tab\t", "line\nbreak",
                      "\u{1}", "\u{7F}", "\u{2028}", "é", " ", "Home.Garden"]
        return (0..<Int.random(in: 1...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    /// JSON string text as a writer would spell it, sometimes with `\u` escapes.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            case "é": out += "\\u00e9"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func oddValue(_ rng: inout SeededRandom) -> String {
        ["null", "true", "false", "0", "-0", "42", "-7", "3.5", "1e3", "12345678901234567890",
         "60.000000", "-3.000", "0.000000", "-0.000", "0.5", "00.0", "1234567890123456.0", "7.", "120.000000", "\"\"", "\"PT1H30M\"",
         "\"a/b\"", "\"x\\u00e9\"", "\"tab\\there\"", "\"日本\"", "[]", "[1,\"a\"]", "{}", "{\"b\":1,\"a\":[true,null]}",
         "\"20261301T000000Z\"", "[\"x\",1]"].randomElement(using: &rng)!
    }
}
