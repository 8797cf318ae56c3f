import Foundation
import NextUpCore
import Testing

/// Issue 37: every JSON value an opaque field may hold (written by a newer
/// nextup) reads as a ``FieldValue`` and writes back as the same JSON; text
/// enters in one Unicode spelling.
@Suite struct FieldValueJSONTests {
    func read(_ json: String) throws -> FieldValue { try JSONDecoder().decode(FieldValue.self, from: Data(json.utf8)) }

    @Test func floatsArraysAndObjectsAreKeptAsCompactJSON() throws {
        #expect(try read("1.5") == .json("1.5"))
        #expect(try read("-2.5e-3") == .json("-0.0025"))
        #expect(try read(#"[ "milk", 2, null ]"#) == .json(#"["milk",2,null]"#))
        #expect(try read(#"{"z": true, "a": [1, {"b": "\u00e9\n"}]}"#) == .json(#"{"a":[1,{"b":"é\n"}],"z":true}"#))
        // The scalars keep their own cases.
        #expect(try read("7") == .int(7))
        #expect(try read(#""x""#) == .string("x"))
    }

    @Test func aJSONValueWritesBackAsTheSameJSON() throws {
        for text in ["1.5", #"["milk",2,null]"#, #"{"a":[1,{"b":"é\n"}],"z":true}"#] {
            var out: [UInt8] = []
            JSONText.appendValue(.json(text), to: &out)
            #expect(try read(String(decoding: out, as: UTF8.self)) == .json(text))
            let encoded = try JSONEncoder().encode(FieldValue.json(text))
            #expect(try JSONDecoder().decode(FieldValue.self, from: encoded) == .json(text))
        }
        #expect(TaskField(rawValue: "estimate_h")!.accepts(.json("1.5")))
        #expect(!TaskField.title.accepts(.json("1.5")))
    }

    @Test func textEntersInNormalisationFormC() throws {
        let decomposed = "cafe\u{301}"
        #expect(Array(try TaskText.title(decomposed).utf8) == Array("caf\u{E9}".utf8))
        #expect(Array(try TaskText.tag(decomposed).utf8) == Array("caf\u{E9}".utf8))
        #expect(Array(try TaskText.notes("x " + decomposed).utf8) == Array("x caf\u{E9}".utf8))
        #expect(Array(try TaskText.category(decomposed).utf8) == Array("caf\u{E9}".utf8))
        let ascii = "plain"
        #expect(TaskText.normalized(ascii) == ascii)
    }
}
