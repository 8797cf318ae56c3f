import Foundation
import Testing
@testable import NextUpCore
@testable import NextUpStore

/// The outbox's `changes` column is written by hand for speed; it must decode,
/// with the same JSONDecoder the sync reads it with, to exactly the changes
/// written — and to what JSONEncoder's own output decodes to.
struct OutboxEntriesTests {
    @Test func handWrittenEntriesDecodeToTheChangesWritten() throws {
        let task = TaskID.make()
        let replica = ReplicaID.make()
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        let values: [FieldValue] = [.null, .string(""), .string("a/b \"q\" \\ \(controls) 日本語 👩‍💻"),
                                    .int(0), .int(-7), .int(Int64.max), .bool(true), .bool(false)]
        let changes = values.enumerated().map { i, v in
            FieldChange(task: task, field: TaskField.allCases[i % TaskField.allCases.count], value: v,
                        version: Version(timestamp: HybridTimestamp(rawValue: Int64(i) << 16 | 3), replica: replica))
        }
        let json = Outbox.entriesJSON(changes)
        #expect(Outbox.decode(task: task.rawValue, changes: json) == changes)

        let entries = changes.map { Outbox.Entry(f: $0.field.rawValue, v: $0.value, h: $0.version.timestamp.rawValue, r: $0.version.replica.rawValue) }
        let foundation = String(decoding: try JSONEncoder().encode(entries), as: UTF8.self)
        #expect(Outbox.decode(task: task.rawValue, changes: foundation) == Outbox.decode(task: task.rawValue, changes: json))
    }
}
