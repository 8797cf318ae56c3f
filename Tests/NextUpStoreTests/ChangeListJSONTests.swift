import Foundation
import Testing
@testable import NextUpCore
@testable import NextUpStore

/// A change list (the undo journal's `changes` column) is written by hand for speed; it must decode,
/// with the same JSONDecoder the sync reads it with, to exactly the changes
/// written — and to what JSONEncoder's own output decodes to.
struct ChangeListJSONTests {
    @Test func handWrittenEntriesDecodeToTheChangesWritten() throws {
        let task = TaskID.make()
        let replica = ReplicaID.make()
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        let values: [FieldValue] = [.null, .string(""), .string("a/b \"q\" \\ \(controls) 日本語 👩‍💻"),
                                    .int(0), .int(-7), .int(Int64.max), .bool(true), .bool(false)]
        let changes = values.enumerated().map { i, v in
            FieldChange(task: task, field: TaskField.known[i % TaskField.known.count], value: v,
                        version: Version(timestamp: HybridTimestamp(rawValue: Int64(i) << 16 | 3), replica: replica))
        }
        let json = ChangeListJSON.encode(changes)
        #expect(ChangeListJSON.decode(task: task.rawValue, changes: json) == changes)

        let entries = changes.map { ChangeListJSON.Entry(f: $0.field.rawValue, v: $0.value, h: $0.version.timestamp.rawValue, r: $0.version.replica.rawValue) }
        let foundation = String(decoding: try JSONEncoder().encode(entries), as: UTF8.self)
        #expect(ChangeListJSON.decode(task: task.rawValue, changes: foundation) == ChangeListJSON.decode(task: task.rawValue, changes: json))
    }
}

/// Reading the outbox back: the byte reader must give what JSONDecoder gives
/// for what nextup writes, and step aside for anything else.
struct ChangeListJSONReadingTests {
    static let task = TaskID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!
    static let replica = ReplicaID("0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b")!

    static var changes: [FieldChange] {
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        let values: [FieldValue] = [.null, .string(""), .string("a/b \"q\" \\ \(controls) 日本語 👩‍💻 \u{7F}"),
                                    .int(0), .int(-7), .int(Int64.max), .int(Int64.min), .bool(true), .bool(false)]
        return values.enumerated().map { i, v in
            FieldChange(task: task, field: TaskField.known[i % TaskField.known.count], value: v,
                        version: Version(timestamp: HybridTimestamp(rawValue: Int64(i) << 16 | 3), replica: replica))
        }
    }

    @Test func writtenEntriesAreReadOnTheFastPath() {
        let json = ChangeListJSON.encode(Self.changes)
        #expect(ChangeListJSON.decodeWritten(task: Self.task, changes: json) == Self.changes)
        #expect(ChangeListJSON.decodeWritten(task: Self.task, changes: "[]") == [])
    }

    @Test func otherSpellingsFallBackToJSONDecoder() throws {
        let entries = Self.changes.map { ChangeListJSON.Entry(f: $0.field.rawValue, v: $0.value, h: $0.version.timestamp.rawValue, r: $0.version.replica.rawValue) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // keys h, f, r, v: not the written order
        let foundation = String(decoding: try encoder.encode(entries), as: UTF8.self)
        #expect(ChangeListJSON.decodeWritten(task: Self.task, changes: foundation) == nil)
        #expect(ChangeListJSON.decode(task: Self.task.rawValue, changes: foundation) == Self.changes)
        for odd in ["", "[", "[ ]", #"[{"f":"title","v":1.5,"h":1,"r":"x"}]"#, #"[{"f":"title","v":"\ud83d\ude00","h":1,"r":"x"}]"#,
                    #"[{"f":"title","v":1,"h":99999999999999999999,"r":"x"}]"#] {
            #expect(ChangeListJSON.decodeWritten(task: Self.task, changes: odd) == nil, "\(odd)")
        }
    }

    @Test func opaqueFieldsAreKeptAndBadReplicasOrNamesDropped() {
        let json = #"[{"f":"bogus","v":1,"h":1,"r":"0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b"},{"f":"title","v":"t","h":2,"r":"nope"},{"f":"bad name","v":1,"h":4,"r":"0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b"},{"f":"title","v":"t","h":3,"r":"0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b"}]"#
        let fast = ChangeListJSON.decodeWritten(task: Self.task, changes: json)
        #expect(fast?.map(\.field.rawValue) == ["bogus", "title"])
        #expect(fast?.map(\.version.timestamp.rawValue) == [1, 3])
    }
}
