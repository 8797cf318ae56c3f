import Foundation
import Testing
@testable import NextUpCore
@testable import NextUpStore

/// A change list (the undo journal's `changes` column) decodes to exactly the
/// changes written, whatever the key order; unknown names and bad replicas
/// are dropped.
struct ChangeListJSONTests {
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

    @Test func entriesDecodeToTheChangesWritten() {
        let json = ChangeListJSON.encode(Self.changes)
        #expect(ChangeListJSON.decode(task: Self.task.rawValue, changes: json) == Self.changes)
        #expect(ChangeListJSON.decode(task: Self.task.rawValue, changes: ChangeListJSON.encode([])) == [])
    }

    @Test func otherKeyOrdersDecodeTheSame() throws {
        let entries = Self.changes.map { ChangeListJSON.Entry(f: $0.field.rawValue, v: $0.value, h: $0.version.timestamp.rawValue, r: $0.version.replica.rawValue) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // keys h, f, r, v
        let sorted = String(decoding: try encoder.encode(entries), as: UTF8.self)
        #expect(ChangeListJSON.decode(task: Self.task.rawValue, changes: sorted) == Self.changes)
        for odd in ["", "[", #"[{"f":"title","v":1.5,"h":1,"r":"x"}]"#] {
            #expect(ChangeListJSON.decode(task: Self.task.rawValue, changes: odd) == [], "\(odd)")
        }
    }

    @Test func opaqueFieldsAreKeptAndBadReplicasOrNamesDropped() {
        let json = #"[{"f":"bogus","v":1,"h":1,"r":"0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b"},{"f":"title","v":"t","h":2,"r":"nope"},{"f":"bad name","v":1,"h":4,"r":"0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b"},{"f":"title","v":"t","h":3,"r":"0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b"}]"#
        let decoded = ChangeListJSON.decode(task: Self.task.rawValue, changes: json)
        #expect(decoded.map(\.field.rawValue) == ["bogus", "title"])
        #expect(decoded.map(\.version.timestamp.rawValue) == [1, 3])
    }
}
