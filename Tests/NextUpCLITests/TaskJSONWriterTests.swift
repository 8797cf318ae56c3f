import Foundation
import NextUpCore
import NextUpStore
import NextUpTestSupport
import Testing
@testable import NextUpCLI

/// `--json` and `export` are written by a hand-rolled writer for speed; its
/// output must stay byte for byte what Foundation's JSONEncoder writes for
/// `TaskJSON(task, versions:)`, whether it reads a ``TaskItem`` or a stored
/// row in place (``TaskColumns``, `export`).
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

    static let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))

    /// Every attribute set, every attribute unset, and text with every kind of
    /// character JSON treats specially; versions from two replicas, of known
    /// fields, tag elements and opaque fields.
    static var samples: [TaskItem] {
        var full = TaskItem(id: TaskID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!)
        full.title = "quote \" backslash \\ slash / tab \t emoji 👩‍💻 日本語 é"
        full.notes = "controls: \(controls) del \u{7F} separators \u{2028}\u{2029} end"
        full.urgency = .urgent; full.importance = Importance(rawValue: 3); full.duration = try? TaskDuration(minutes: 90)
        full.category = "Deep/Work"; full.due = try? DueDate.parse("2026-12-24"); full.nextUpPosition = "V"; full.deleted = true
        full.completedAt = 1_767_323_045_678; full.created = 1_700_000_000_456; full.source = "taskwarrior"; full.externalID = "x\"y"
        for tag in ["Work", "é/\"", "日本", "work"] { full.extra[.tag(tag)] = .bool(true) }
        full.extra[.tag("gone")] = .bool(false)
        full.extra[TaskField(rawValue: "x-priority-z")!] = .int(3)
        full.extra[TaskField(rawValue: "x-note")!] = .string("a/\"b\n")
        full.extra[TaskField(rawValue: "x-flag")!] = .bool(true)
        full.extra[TaskField(rawValue: "x-gone")!] = .null
        let (a, b) = (ReplicaID("0b6c2d6e-9a55-4c43-a2a4-4f1d1e0e9a01")!, ReplicaID("ffb8a2c0-1111-4222-8333-944455556666")!)
        for (i, field) in (FieldSpec.table.map(\.field) + Array(full.extra.keys)).enumerated() {
            full.versions[field] = Version(timestamp: HybridTimestamp(millis: 1_700_000_000_000 + Int64(i % 4), counter: Int64(i)),
                                           replica: i % 3 == 0 ? a : b)
        }
        var oneEach = TaskItem(id: TaskID("00000000-0000-4000-8000-000000000003")!)
        oneEach.title = "one of each"
        oneEach.extra[.tag("solo")] = .bool(true)
        oneEach.extra[TaskField(rawValue: "x")!] = .int(1)
        oneEach.versions[.title] = Version(timestamp: HybridTimestamp(millis: 5), replica: a)
        var bare = TaskItem(id: TaskID("00000000-0000-4000-8000-000000000002")!)
        bare.title = "bare"
        return [full, bare, oneEach]
    }

    @Test(arguments: [true, false]) func arraysMatchFoundation(pretty: Bool) throws {
        for tasks in [[], Self.samples, Array(Self.samples.reversed()), [Self.samples[0]]] {
            for versions in [true, false] {
                #expect(TaskJSONWriter.string(tasks, pretty: pretty, versions: versions)
                        == (try Self.foundation(tasks.map { TaskJSON($0, versions: versions) }, pretty: pretty)))
            }
        }
    }

    @Test(arguments: [true, false]) func singleObjectsMatchFoundation(pretty: Bool) throws {
        for task in Self.samples {
            #expect(TaskJSONWriter.string(task, pretty: pretty) == (try Self.foundation(TaskJSON(task), pretty: pretty)))
        }
    }

    @Test func outputParsesBackToTheSameObjects() throws {
        let text = TaskJSONWriter.string(Self.samples, pretty: true, versions: true)
        let back = try JSONDecoder().decode([TaskJSON].self, from: Data(text.utf8))
        #expect(back == Self.samples.map { TaskJSON($0, versions: true) })
    }

    /// The streamed writer (export, `list --json`) gives what the string
    /// writer gives, plus a newline.
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
        // In one piece, and in pieces written on two threads (one of 1, of 3, of 7, … tasks).
        for (list, versions) in [(tasks, true), (tasks, false), ([], true)] {
            for perPiece in [TaskJSONWriter.tasksPerPiece, 1, 3, 7, 39, 40] {
                #expect(try Self.streamed(list, versions: versions, tasksPerPiece: perPiece)
                    == TaskJSONWriter.string(list, pretty: true, versions: versions) + "\n")
            }
        }
    }

    /// A write that fails while pieces are being made on two threads is
    /// thrown by the stream itself, and the stream ends (no thread left
    /// waiting on it).
    @Test func aFailedWriteEndsAStreamInPieces() throws {
        let tasks = (0..<400).map { i in
            var t = TaskItem(id: TaskID.make())
            t.title = "task \(i)"
            t.notes = String(repeating: "n", count: 10_000)
            return t
        }
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var out = FDOutput(fd: fd)
        defer { out.finish() }
        // 4 MB in pieces of 10 tasks: a quarter chunk handed over, refused,
        // and the refusal met on handing over the next.
        #expect(throws: FDOutput.Failure.self) {
            try TaskJSONWriter.stream(tasks, pretty: true, versions: false, tasksPerPiece: 10, to: &out)
        }
    }

    static func streamed(_ tasks: [TaskItem], versions: Bool, tasksPerPiece: Int = TaskJSONWriter.tasksPerPiece) throws -> String {
        try written { try TaskJSONWriter.stream(tasks, pretty: true, versions: versions, tasksPerPiece: tasksPerPiece, to: &$0) }
    }

    static func streamed(_ rows: TaskRowBuffer, at positions: [Int], versions: Bool, tasksPerPiece: Int = TaskJSONWriter.tasksPerPiece) throws -> String {
        try written { try TaskJSONWriter.stream(rows, at: positions, pretty: true, versions: versions, tasksPerPiece: tasksPerPiece, to: &$0) }
    }

    /// What `body` writes into a file.
    static func written(_ body: (inout FDOutput) throws -> Void) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try PrivateFile.write(to: url.path, command: "test", body)
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A store holding the samples and random tasks: every field set or
    /// unset, tags and opaque fields, text with escapes, versions from
    /// several replicas, done, deleted and Next Up tasks (some with equal
    /// order keys or creation times, to reach the id tie-break).
    static func randomStore(seed: UInt64, count: Int) throws -> (TaskStore, URL) {
        var rng = SeededRandom(seed: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString)")
        let store = try TaskStore.open(StoreLocation(folder: folder))
        let replicas = (0..<3).map { _ in ReplicaID.make() }
        let texts = ["plain", "quote \" and \\", "tab\tnew\nline", controls, "emoji 👩‍💻 é 日本", "slash / x", ""]
        var tasks = samples
        for i in 0..<count {
            var t = TaskItem(id: TaskID.make())
            t.title = "t\(i) " + texts[Int.random(in: 0..<texts.count, using: &rng)]
            if Int.random(in: 0..<2, using: &rng) == 0 { t.notes = texts[Int.random(in: 0..<texts.count, using: &rng)] }
            if Int.random(in: 0..<2, using: &rng) == 0 { t.urgency = Int.random(in: 0..<2, using: &rng) == 0 ? .urgent : .notUrgent }
            if Int.random(in: 0..<2, using: &rng) == 0 { t.importance = Importance(rawValue: 1 + Int.random(in: 0..<3, using: &rng)) }
            if Int.random(in: 0..<2, using: &rng) == 0 { t.duration = try? TaskDuration(minutes: 1 + Int.random(in: 0..<300, using: &rng)) }
            if Int.random(in: 0..<2, using: &rng) == 0 { t.category = ["Home", "Deep/Work", "é"][Int.random(in: 0..<3, using: &rng)] }
            if Int.random(in: 0..<3, using: &rng) == 0 { t.due = try? DueDate.parse("2026-0\(1 + Int.random(in: 0..<9, using: &rng))-1\(Int.random(in: 0..<10, using: &rng))") }
            if Int.random(in: 0..<5, using: &rng) == 0 { t.completedAt = 1_700_000_000_000 + Int64(Int.random(in: 0..<1_000_000, using: &rng)) }
            if Int.random(in: 0..<10, using: &rng) == 0 { t.deleted = true }
            if Int.random(in: 0..<4, using: &rng) == 0 { t.nextUpPosition = ["V", "W", "Vk", "a"][Int.random(in: 0..<4, using: &rng)] }
            t.created = 1_700_000_000_000 + Int64(Int.random(in: 0..<20, using: &rng))
            if Int.random(in: 0..<4, using: &rng) == 0 { t.extra[.tag(["Work", "home", "Home", "é"][Int.random(in: 0..<4, using: &rng)])] = .bool(Int.random(in: 0..<3, using: &rng) != 0) }
            if Int.random(in: 0..<6, using: &rng) == 0 { t.extra[TaskField(rawValue: "x-\(Int.random(in: 0..<3, using: &rng))")!] = [.string("v\"/"), .int(7), .bool(false), .null][Int.random(in: 0..<4, using: &rng)] }
            let fields = FieldSpec.table.map(\.field).filter { t.value(of: $0) != TaskItem(id: t.id).value(of: $0) || $0 == .title }
            for field in fields + Array(t.extra.keys) {
                t.versions[field] = Version(timestamp: HybridTimestamp(millis: 1_000 + Int64(Int.random(in: 0..<50, using: &rng)), counter: Int64(Int.random(in: 0..<3, using: &rng))),
                                            replica: replicas[Int.random(in: 0..<3, using: &rng)])
            }
            tasks.append(t)
        }
        _ = try store.mergeRemote(tasks.flatMap(\.allChanges))
        return (store, folder)
    }

    /// `export` writes each stored row from its columns: the same bytes as
    /// the writer gives for the row read as a ``TaskItem``.
    @Test(arguments: [1, 2, 3] as [UInt64]) func aStoredRowIsWrittenAsItsTask(seed: UInt64) throws {
        let (store, folder) = try Self.randomStore(seed: seed, count: 300)
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = try store.allTasks()
        let rows = try store.allTaskRows()
        #expect(rows.count == items.count)
        for versions in [true, false] {
            let fromRows = try Self.streamed(rows, at: Array(0..<rows.count), versions: versions)
            let fromItems = try Self.streamed(items, versions: versions)
            #expect(fromRows == fromItems)
            // And what Foundation writes for the task objects.
            #expect(fromItems == (try Self.foundation(items.map { TaskJSON($0, versions: versions) }, pretty: true)) + "\n")
        }
    }

    /// `list --json` written from the open rows in ``TaskStore/openTaskRows(nowMillis:)``'s
    /// order is the text written from the tasks ``TaskStore/tasks(_:nowMillis:)``
    /// lists: the same tasks, in the same order (Core's, run on items holding
    /// only ``TaskOrdering/fields``), with the same `modified`.
    @Test(arguments: [6, 7] as [UInt64]) func theOpenRowsInListOrderWriteWhatTheListedTasksWrite(seed: UInt64) throws {
        let (store, folder) = try Self.randomStore(seed: seed, count: 400)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A "now" that puts some due dates in the score's ramp.
        let now: Int64 = 1_790_000_000_000
        let listed = try store.tasks(TaskFilter(scope: .open, versions: .newest), nowMillis: now)
        let (rows, order) = try store.openTaskRows(nowMillis: now)
        #expect(order.map { String(decoding: rows[$0].id, as: UTF8.self) } == listed.map(\.id.rawValue))
        #expect(try Self.streamed(rows, at: order, versions: false) == Self.streamed(listed, versions: false))
        let all = try store.allTasks().count
        #expect(listed.count > 100 && listed.contains(where: \.isNextUp) && listed.count < all)
    }

    /// `export`'s order on the columns is Core's: Next Up in its order, then
    /// every other task oldest first.
    @Test(arguments: [4, 5] as [UInt64]) func theExportOrderIsCoresOrder(seed: UInt64) throws {
        let (store, folder) = try Self.randomStore(seed: seed, count: 400)
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = try store.allTasks()
        let next = TaskOrdering.nextUpOrder(items)
        let rest = TaskOrdering.creationOrder(items).filter { !next.contains($0) }
        let expected = (next + rest).map { items[$0].id.rawValue }
        let rows = try store.allTaskRows()
        let order = rows.exportOrder().map { String(decoding: rows[$0].id, as: UTF8.self) }
        #expect(order == expected)
        #expect(next.count > 1 && rest.count > 1)
        // The rows as `export` reads them (each asked for ahead) are those
        // rows, and write the same text as their tasks, in one piece or in
        // many on two threads.
        let positions = rows.exportOrder()
        var inOrder: [String] = []
        rows.forEachRow(at: positions[...]) { inOrder.append(String(decoding: $0.id, as: UTF8.self)) }
        #expect(inOrder == expected)
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id.rawValue, $0) })
        let written = try Self.streamed(expected.map { byID[$0]! }, versions: true)
        for perPiece in [TaskJSONWriter.tasksPerPiece, 1, 13] {
            #expect(try Self.streamed(rows, at: positions, versions: true, tasksPerPiece: perPiece) == written)
        }
        var some = 0
        rows.forEachRow(at: positions.prefix(3)) { _ in some += 1 }
        rows.forEachRow(at: []) { _ in some += 10 }
        #expect(some == 3)
    }
}
