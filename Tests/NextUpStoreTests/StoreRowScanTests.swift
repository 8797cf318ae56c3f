import Foundation
import NextUpTestSupport
import Testing
@testable import NextUpCore
@testable import NextUpStore

/// A whole-set read of a large store goes in two halves at once, through
/// two connections (``TaskStore/taskRows(where:halvesFrom:beforeSecondSnapshot:)``):
/// the rows must be those of reading it in one piece, from one snapshot.
struct StoreRowScanTests {
    /// Every column of every row, as text, to compare two reads by.
    static func columns(_ rows: TaskRowBuffer) -> [String] {
        (0..<rows.count).map { i in
            let row = rows[i]
            var out = String(decoding: row.id, as: UTF8.self)
            for field in TaskField.known {
                switch field.spec!.kind {
                case .text: out += "|" + (row.text(field).map { String(decoding: $0, as: UTF8.self) } ?? "nil")
                case .integer, .boolean: out += "|" + (row.integer(field).map(String.init) ?? "nil")
                }
            }
            out += "|\(row.extra.sorted { $0.key < $1.key })"
            var versions: [String] = []
            let newest = row.forEachVersion { field, version in versions.append("\(field.rawValue)=\(version)") }
            return out + "|\(versions)|\(newest)"
        }
    }

    /// A store of `count` tasks, some done, deleted or in Next Up, with
    /// tags, notes and versions of two replicas.
    static func store(count: Int, seed: UInt64, in folder: TemporaryFolder) throws -> TaskStore {
        var rng = SeededRandom(seed: seed)
        let store = try TaskStore.open(StoreLocation(folder: folder.url))
        let replicas = [ReplicaID.make(), ReplicaID.make()]
        var tasks: [TaskItem] = []
        for i in 0..<count {
            var t = TaskItem(id: TaskID.make())
            t.title = "task \(i) é"
            if Int.random(in: 0..<2, using: &rng) == 0 { t.notes = String(repeating: "n", count: Int.random(in: 0..<40, using: &rng)) }
            if Int.random(in: 0..<5, using: &rng) == 0 { t.completedAt = 1_700_000_000_000 + Int64(i) }
            if Int.random(in: 0..<9, using: &rng) == 0 { t.deleted = true }
            if Int.random(in: 0..<4, using: &rng) == 0 { t.nextUpPosition = "V\(i)" }
            if Int.random(in: 0..<3, using: &rng) == 0 { t.extra[.tag("Work")] = .bool(true) }
            t.created = 1_700_000_000_000 + Int64(Int.random(in: 0..<50, using: &rng))
            let fields = FieldSpec.table.map(\.field).filter { t.value(of: $0) != TaskItem(id: t.id).value(of: $0) || $0 == .title }
            for field in fields + Array(t.extra.keys) {
                t.versions[field] = Version(timestamp: HybridTimestamp(millis: 1_000 + Int64(i)), replica: replicas[i % 2])
            }
            tasks.append(t)
        }
        _ = try store.mergeRemote(tasks.flatMap(\.allChanges))
        return store
    }

    /// In halves (whatever the store's size) or in one piece, every task
    /// and the open ones: the same rows, in id order, and the joined rows
    /// read ahead in any order are those looked up one by one.
    @Test(arguments: [1, 2] as [UInt64]) func halvesReadTheRowsOfOnePiece(seed: UInt64) throws {
        let folder = TemporaryFolder()
        let store = try Self.store(count: 600, seed: seed, in: folder)
        for condition in [nil, ListSQL.openScanned] {
            let whole = try store.taskRows(where: condition, halvesFrom: .max)
            let halves = try store.taskRows(where: condition, halvesFrom: 0)
            #expect(Self.columns(halves) == Self.columns(whole))
            #expect(halves.count > 300)
            let ids = (0..<halves.count).map { String(decoding: halves[$0].id, as: UTF8.self) }
            #expect(ids == ids.sorted())
            let order = Array((0..<halves.count).shuffled())
            var read: [String] = []
            halves.forEachRow(at: order[...]) { read.append(String(decoding: $0.id, as: UTF8.self)) }
            #expect(read == order.map { ids[$0] })
        }
        // The export order on joined halves is the one on a single buffer.
        #expect(try store.taskRows(where: nil, halvesFrom: 0).exportOrder() == store.taskRows(where: nil, halvesFrom: .max).exportOrder())
    }

    /// A commit between the store's snapshot and the second connection's
    /// would make the halves of two different stores: the read notices
    /// (the data version moved) and reads everything in the first
    /// snapshot, without the commit.
    @Test func aCommitBetweenTheTwoSnapshotsIsNotRead() throws {
        let folder = TemporaryFolder()
        let store = try Self.store(count: 400, seed: 3, in: folder)
        let before = Self.columns(try store.taskRows(where: nil, halvesFrom: .max))
        let other = try TaskStore.open(StoreLocation(folder: folder.url))
        // A new task in each half, and every task retitled.
        let all = try other.allTasks()
        var added: [TaskItem] = []
        for id in ["00000001-0000-4000-8000-000000000000", "fffffff0-0000-4000-8000-000000000000"] {
            var t = TaskItem(id: TaskID(id)!)
            t.title = "added"
            t.versions[.title] = Version(timestamp: HybridTimestamp(millis: 9_000_000), replica: ReplicaID.make())
            added.append(t)
        }
        let retitled = all.map { task -> FieldChange in
            FieldChange(task: task.id, field: .title, value: .string("retitled"),
                        version: Version(timestamp: HybridTimestamp(millis: 9_000_000), replica: ReplicaID.make()))
        }
        var committed = false
        let read = try store.taskRows(where: nil, halvesFrom: 0) {
            guard !committed else { return }
            committed = true
            _ = try? other.mergeRemote(added.flatMap(\.allChanges) + retitled)
        }
        #expect(committed)
        #expect(Self.columns(read) == before)
        // The commit is there for the next read, in halves as in one piece.
        let after = try store.taskRows(where: nil, halvesFrom: 0)
        #expect(after.count == read.count + 2)
        #expect(Self.columns(after) == Self.columns(try store.taskRows(where: nil, halvesFrom: .max)))
    }
}
