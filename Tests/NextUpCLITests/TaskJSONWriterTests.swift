import Foundation
import NextUpCore
import Testing
@testable import NextUpCLI

/// `--json` and `export` are written by a hand-rolled writer for speed; its
/// output must stay byte for byte what Foundation's JSONEncoder writes.
@Suite struct TaskJSONWriterTests {
    static func encoder(pretty: Bool) -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                                    : [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    static func foundation(_ value: some Encodable, pretty: Bool) throws -> String {
        String(decoding: try encoder(pretty: pretty).encode(value), as: UTF8.self)
    }

    /// Every attribute set, every attribute unset, and text with every kind of
    /// character JSON treats specially.
    static var samples: [TaskJSON] {
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        var full = TaskJSON(TaskItem(id: TaskID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!))
        full.title = "quote \" backslash \\ slash / tab \t emoji 👩‍💻 日本語 é"
        full.notes = "controls: \(controls) del \u{7F} separators \u{2028}\u{2029} end"
        full.urgency = "urgent"; full.importance = 3; full.duration = 90; full.category = "Deep/Work"
        full.due = "2026-12-24"; full.done = true; full.nextUp = false; full.deleted = true
        full.completedAt = "2026-01-02T03:04:05.678Z"; full.source = "taskwarrior"; full.externalID = "x\"y"
        full.tags = ["Work", "é/\"", "日本"]
        full.extra = ["x-priority-z": .int(3), "x-note": .string("a/\"b"), "x-flag": .bool(true), "x-gone": .null]
        var oneEach = TaskJSON(TaskItem(id: TaskID("00000000-0000-4000-8000-000000000003")!))
        oneEach.tags = ["solo"]
        oneEach.extra = ["x": .int(1)]
        var bare = TaskJSON(TaskItem(id: TaskID("00000000-0000-4000-8000-000000000002")!))
        bare.id = nil; bare.created = nil; bare.modified = nil; bare.done = nil; bare.nextUp = nil; bare.deleted = nil
        bare.title = "bare"
        return [full, bare, oneEach]
    }

    @Test(arguments: [true, false]) func arraysMatchFoundation(pretty: Bool) throws {
        for tasks in [[], Self.samples, Array(Self.samples.reversed()), [Self.samples[0]]] {
            #expect(TaskJSONWriter.string(tasks, pretty: pretty) == (try Self.foundation(tasks, pretty: pretty)))
        }
    }

    @Test(arguments: [true, false]) func singleObjectsMatchFoundation(pretty: Bool) throws {
        for task in Self.samples {
            #expect(TaskJSONWriter.string(task, pretty: pretty) == (try Self.foundation(task, pretty: pretty)))
        }
    }

    @Test func outputParsesBackToTheSameObjects() throws {
        let text = TaskJSONWriter.string(Self.samples, pretty: true)
        let back = try JSONDecoder().decode([TaskJSON].self, from: Data(text.utf8))
        #expect(back.map(\.title) == Self.samples.map(\.title))
        #expect(back.map(\.notes) == Self.samples.map(\.notes))
    }

    /// The streamed writer (export, `list --json`) gives what the string
    /// writer gives for `TaskJSON(task, versions:)`, plus a newline — versions
    /// written from the task itself included.
    @Test func theStreamedArrayIsTheStringWritersArray() throws {
        var tasks: [TaskItem] = []
        for i in 0..<40 {
            var t = TaskItem(id: TaskID.make())
            t.title = "task \(i) \"quoted\" / é 日本"
            t.set(.tag("Work\(i % 3)"), to: .bool(true))
            if i % 2 == 0 { t.set(TaskField(rawValue: "x-opaque")!, to: .string("v/\(i)")) }
            let replica = ReplicaID.make()
            for (k, field) in [TaskField.title, .urgency, .tag("Work\(i % 3)"), .done].enumerated() {
                t.versions[field] = Version(timestamp: HybridTimestamp(millis: 1_000 + Int64(i * 10 + k)), replica: replica)
            }
            tasks.append(t)
        }
        for (list, versions) in [(tasks, true), (tasks, false), ([], true)] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).json")
            try PrivateFile.write(to: url.path, command: "test") { try TaskJSONWriter.stream(list, pretty: true, versions: versions, to: &$0) }
            defer { try? FileManager.default.removeItem(at: url) }
            let streamed = try String(contentsOf: url, encoding: .utf8)
            #expect(streamed == TaskJSONWriter.string(list.map { TaskJSON($0, versions: versions) }, pretty: true) + "\n")
        }
    }
}
