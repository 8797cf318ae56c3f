import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpCLI

/// The JSON that `--json` and `export` print (``JSONOutput``): its bytes are
/// what scripts and backups read, and `export`'s order is what an import
/// rebuilds Next Up from.
@Suite struct TaskJSONOutputTests {
    static let replica = ReplicaID("0b6c2d6e-9a55-4c43-a2a4-4f1d1e0e9a01")!

    /// Text JSON escapes, tags, an opaque field and versions.
    static var sample: TaskItem {
        var t = TaskItem(id: TaskID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!)
        t.title = "quote \" backslash \\ slash / tab \t bell \u{7} é"
        t.notes = "two\nlines"
        t.urgency = .urgent
        t.importance = Importance(rawValue: 3)
        t.duration = try? TaskDuration(minutes: 90)
        t.category = "Deep/Work"
        t.due = try? DueDate.parse("2026-12-24")
        t.nextUpPosition = "V"
        t.created = 1_700_000_000_456
        t.recur = try? RecurrenceRule.parse("every monday")
        t.occurrence = OccurrenceID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c#2")
        t.deferDate = try? DueDate.parse("2026-12-20")
        t.extra[.tag("Work")] = .bool(true)
        t.extra[TaskField(rawValue: "x-priority")!] = .int(3)
        t.versions[.title] = Version(timestamp: HybridTimestamp(millis: 1_700_000_000_500), replica: replica)
        t.versions[.tag("Work")] = Version(timestamp: HybridTimestamp(millis: 1_700_000_000_400, counter: 2), replica: replica)
        return t
    }

    @Test func anExportedTaskIsWrittenAsUsersSeeIt() throws {
        let text = String(decoding: JSONOutput.data([Self.sample], versions: true), as: UTF8.self)
        #expect(text == """
            [
              {
                "category" : "Deep/Work",
                "completed_at" : null,
                "created" : "2023-11-14T22:13:20.456Z",
                "defer" : "2026-12-20",
                "deleted" : false,
                "done" : false,
                "due" : "2026-12-24",
                "duration" : 90,
                "external_id" : null,
                "extra" : {
                  "x-priority" : 3
                },
                "id" : "6301bbfc-a0c5-454e-8ff9-bb510944fe0c",
                "importance" : 3,
                "modified" : "2023-11-14T22:13:20.500Z",
                "next_up" : true,
                "next_up_key" : "V",
                "notes" : "two\\nlines",
                "occurrence" : "6301bbfc-a0c5-454e-8ff9-bb510944fe0c#2",
                "recur" : "FREQ=WEEKLY;BYDAY=MO",
                "source" : null,
                "tags" : [
                  "Work"
                ],
                "title" : "quote \\" backslash \\\\ slash / tab \\t bell \\u0007 é",
                "urgency" : "urgent",
                "versions" : {
                  "tag:Work" : "018bcfe569900002@0b6c2d6e-9a55-4c43-a2a4-4f1d1e0e9a01",
                  "title" : "018bcfe569f40000@0b6c2d6e-9a55-4c43-a2a4-4f1d1e0e9a01"
                }
              }
            ]

            """)
    }

    @Test func aBareTaskHasEveryKeyAndEmptyCollections() throws {
        var bare = TaskItem(id: TaskID("00000000-0000-4000-8000-000000000002")!)
        bare.title = "bare"
        #expect(JSONOutput.string(bare) == """
            {
              "category" : null,
              "completed_at" : null,
              "created" : "1970-01-01T00:00:00.000Z",
              "defer" : null,
              "deleted" : false,
              "done" : false,
              "due" : null,
              "duration" : null,
              "external_id" : null,
              "id" : "00000000-0000-4000-8000-000000000002",
              "importance" : null,
              "modified" : "1970-01-01T00:00:00.000Z",
              "next_up" : false,
              "notes" : null,
              "occurrence" : null,
              "recur" : null,
              "source" : null,
              "tags" : [

              ],
              "title" : "bare",
              "urgency" : null
            }
            """)
        #expect(String(decoding: JSONOutput.data([], versions: false), as: UTF8.self) == "[\n\n]\n")
    }

    @Test func outputParsesBackToTheSameObjects() throws {
        let back = try JSONDecoder().decode([TaskJSON].self, from: JSONOutput.data([Self.sample, TaskItem(id: .make())], versions: true))
        #expect(back == [Self.sample, TaskItem(id: back[1].id.flatMap(TaskID.init)!)].map { TaskJSON($0, versions: true) })
    }

    /// An array written in several pieces (one per 2,000 tasks) reads back
    /// as one array of every task in order, whatever the count.
    @Test(arguments: [1, 1_999, 2_000, 2_001, 4_500])
    func piecesJoinIntoOneArray(count: Int) throws {
        let tasks = (0..<count).map { i in
            var t = TaskItem(id: TaskID(String(format: "6301bbfc-a0c5-454e-8ff9-%012x", i))!)
            t.title = "task \(i)"
            return t
        }
        let pieces = JSONOutput.pieces(tasks, versions: tasks.map { StoredVersions($0.versions) })
        #expect(pieces.count == (count + 1_999) / 2_000)
        let joined = Data(pieces.joined())
        #expect(joined.last == UInt8(ascii: "\n"))
        let back = try JSONDecoder().decode([TaskJSON].self, from: joined)
        #expect(back.map(\.id) == tasks.map { Optional($0.id.rawValue) })
        #expect(back.map(\.title) == tasks.map(\.title))
        // The same tasks in another order (export's): each piece writes the tasks at its positions.
        let order = Array(tasks.indices.reversed())
        let reordered = try JSONDecoder().decode([TaskJSON].self, from: Data(JSONOutput.pieces(tasks, order: order, versions: tasks.map { StoredVersions($0.versions) }).joined()))
        #expect(reordered.map(\.id) == order.map { Optional(tasks[$0].id.rawValue) })
    }

    /// Next Up first in its order (key, then id), then every other task,
    /// done and deleted ones too, oldest first (then by id).
    @Test func exportWritesNextUpFirstThenOldestFirst() {
        func task(_ n: Int, created: Int64, nextUp: String? = nil, done: Bool = false, deleted: Bool = false) -> TaskItem {
            var t = TaskItem(id: TaskID("00000000-0000-4000-8000-00000000000\(n)")!)
            t.created = created
            t.nextUpPosition = nextUp
            if done { t.completedAt = 5 }
            t.deleted = deleted
            return t
        }
        let tasks = [task(1, created: 30), task(2, created: 10, nextUp: "W"), task(3, created: 20, nextUp: "V"),
                     task(4, created: 10), task(5, created: 5, nextUp: "A", done: true), task(6, created: 10, nextUp: "V"),
                     task(7, created: 1, deleted: true)]
        #expect(TaskOrdering.exportOrder(tasks).map { tasks[$0].id.rawValue.suffix(1) } == ["3", "6", "2", "7", "5", "4", "1"])
    }
}

extension JSONOutput {
    /// ``pieces(_:order:versions:)`` joined: the whole output as one buffer.
    static func data(_ tasks: [TaskItem], versions: Bool) -> Data {
        Data(pieces(tasks, versions: versions ? tasks.map { StoredVersions($0.versions) } : nil).joined())
    }
}
