import Foundation
import GRDB
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// A whole log merged in one transaction (``TaskStore/mergeRemoteAtOnce(_:)``)
/// must leave what merging it batch by batch leaves — into an empty store,
/// where the task table's indexes are dropped and built again, too — and a
/// failure must leave nothing of it.
@Suite struct StoreMergeAtOnceTests {
    let tmp = TemporaryFolder()
    static let remote = ReplicaID("bbbbbbbb-0000-4000-8000-000000000002")!

    /// Three batches of changes as a log carries them: by task, in id order,
    /// with a task edited again in a later batch and some on the Next Up list.
    static func batches() -> [[FieldChange]] {
        func id(_ i: Int) -> TaskID { TaskID(String(format: "6301bbfc-a0c5-454e-8ff9-%012x", i))! }
        func v(_ t: Int64) -> Version { Version(timestamp: HybridTimestamp(millis: t), replica: remote) }
        var out: [[FieldChange]] = []
        for batch in 0..<3 {
            var changes: [FieldChange] = []
            for i in (batch * 400)..<(batch * 400 + 400) {
                changes.append(FieldChange(task: id(i), field: .title, value: .string("task \(i) 🧪"), version: v(1_000 + Int64(i))))
                changes.append(FieldChange(task: id(i), field: .created, value: .int(1_000 + Int64(i)), version: v(1_000 + Int64(i))))
                if i % 3 == 0 { changes.append(FieldChange(task: id(i), field: .importance, value: .int(Int64(i % 3 + 1)), version: v(1_000 + Int64(i)))) }
                if i % 7 == 0 { changes.append(FieldChange(task: id(i), field: .done, value: .int(5_000), version: v(2_000 + Int64(i)))) }
                if i % 11 == 0 { changes.append(FieldChange(task: id(i), field: .nextUp, value: .string(String(format: "m%05d", i)), version: v(2_000 + Int64(i)))) }
            }
            // A task of the first batch edited again, newer, and one older edit that loses.
            changes.append(FieldChange(task: id(5), field: .title, value: .string("renamed in batch \(batch)"), version: v(9_000 + Int64(batch))))
            changes.append(FieldChange(task: id(6), field: .title, value: .string("stale"), version: v(1)))
            out.append(changes)
        }
        return out
    }

    @Test func rowOrderIsByteOrder() {
        var rng = SeededRandom(seed: 0x1D5)
        let digits = Array("0123456789abcdef")
        // Ids sharing long prefixes, so that the comparison goes deep.
        let ids = (0..<400).map { _ in
            TaskID(String((0..<32).map { i in i < 20 && rng.chance(0.9) ? "7" : digits[Int.random(in: 0..<16, using: &rng)] })
                .enumerated().map { i, c in [8, 12, 16, 20].contains(i) ? "-\(c)" : "\(c)" }.joined())!
        }
        for a in ids {
            for b in ids.prefix(50) {
                #expect(TaskStore.rowPrecedes(a, b) == a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8), "\(a) \(b)")
            }
        }
        #expect(TaskStore.inRowOrder(ids).map(\.rawValue) == ids.map(\.rawValue).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    func indexes(_ store: TaskStore) throws -> [String] {
        try store.database.read { try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task' AND sql IS NOT NULL ORDER BY name") }
    }

    func state(_ store: TaskStore) throws -> [String: String] { try store.syncState() }

    @Test func aWholeLogAtOnceLeavesWhatBatchByBatchLeaves() throws {
        let once = try TaskStore.open(StoreLocation(folder: tmp.path("once")))
        let batched = try TaskStore.open(StoreLocation(folder: tmp.path("batched")))
        let plainIndexes = try indexes(batched)
        var tallies: [Merge.Tally] = []
        try once.mergeRemoteAtOnce { merge in
            for (n, batch) in Self.batches().enumerated() { tallies.append(try merge(batch, ["sync.cursor.f": "\(n)"])) }
        }
        var expected: [Merge.Tally] = []
        for (n, batch) in Self.batches().enumerated() { expected.append(try batched.mergeRemote(batch, state: ["sync.cursor.f": "\(n)"])) }
        #expect(tallies == expected)
        #expect(try once.allTasks() == batched.allTasks())
        #expect(try once.allTasks().count == 1_200)
        // And what Core's merge makes of the same changes in memory: the rows
        // a later batch changes again (below the table's greatest id) were
        // read back, none was taken for new.
        var reference: [TaskID: TaskItem] = [:]
        Merge.apply(Self.batches().flatMap { $0 }, to: &reference)
        #expect(try Dictionary(uniqueKeysWithValues: once.allTasks().map { ($0.id, $0) }) == reference)
        #expect(try state(once) == state(batched))
        #expect(try indexes(once) == plainIndexes)
        #expect(try indexes(once).count == 8)
        #expect(try once.database.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try once.openCount() == batched.openCount())
        #expect(try once.nextUp().map(\.id) == batched.nextUp().map(\.id))
        // A local edit after it wins over every merged version.
        let edited = try once.edit(TaskID(String(format: "6301bbfc-a0c5-454e-8ff9-%012x", 5))!, set: [(.title, .string("local"))])
        #expect(edited.task.title == "local")
    }

    /// The history a whole log leaves in an empty store (its new tasks'
    /// notes written together) reads as the history the same changes leave
    /// when met one at a time, each looked up in what the store holds.
    @Test func aWholeLogLeavesTheHistoryChangesMetOneByOneLeave() throws {
        let clock = FixedClock(millis: 1_800_000_000_000)
        let once = try TaskStore.open(StoreLocation(folder: tmp.path("history-once")), clock: clock)
        let single = try TaskStore.open(StoreLocation(folder: tmp.path("history-single")), clock: clock)
        // Each change with the note its log gives: where it was made.
        let batches = Self.batches().map { batch in
            batch.map { change in
                var noted = change
                noted.note = ChangeNote(origin: .tui, seen: nil)
                return noted
            }
        }
        try once.mergeRemoteAtOnce { merge in
            for batch in batches { _ = try merge(batch, [:]) }
        }
        for change in batches.joined() { _ = try single.mergeRemote([change]) }
        var differ: [String] = []
        var entries = 0
        for task in try once.allTasks() {
            let held = try once.history(of: task.id), met = try single.history(of: task.id)
            entries += held.count
            if held != met { differ.append("\(task.id): \(held) against \(met)") }
        }
        #expect(entries > 2_400)
        #expect(differ.isEmpty, "\(differ.prefix(3))")
    }

    @Test func intoAStoreWithTasksTheIndexesStay() throws {
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("full")))
        _ = try store.add(TaskDraft(title: "already here"))
        let before = try indexes(store)
        try store.mergeRemoteAtOnce { merge in
            for batch in Self.batches() { _ = try merge(batch, [:]) }
        }
        #expect(try indexes(store) == before)
        #expect(try store.allTasks().count == 1_201)
    }

    @Test func aFailureMidwayLeavesNothing() throws {
        struct Stop: Error {}
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("failed")))
        let before = try indexes(store)
        #expect(throws: Stop.self) {
            try store.mergeRemoteAtOnce { merge in
                let batches = Self.batches()
                _ = try merge(batches[0], ["sync.cursor.f": "0"])
                _ = try merge(batches[1], ["sync.cursor.f": "1"])
                throw Stop()
            }
        }
        #expect(try store.allTasks().isEmpty)
        #expect(try state(store).isEmpty)
        #expect(try indexes(store) == before)
        #expect(try store.database.read { try String.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'clock'") } == "0")
    }
}
