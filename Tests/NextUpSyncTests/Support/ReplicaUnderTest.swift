import Foundation
import NextUpCore
import NextUpStore
@testable import NextUpSync

/// A replica a test drives: local operations through the store's write path,
/// sync cycles against a peer folder, and its whole state for comparison.
protocol ReplicaUnderTest: AnyObject {
    var cycle: SyncCycle { get }
    /// Applies an operation; returns the changes it made (empty: a no-op).
    func apply(_ operation: TaskOperation) throws -> [FieldChange]
    func tasks() throws -> [TaskID: TaskItem]
}

extension ReplicaUnderTest {
    @discardableResult
    func sync(full: Bool = false) throws -> SyncReport { try cycle.run(full: full) }

    /// The id of the replica's `index`-th task in id order (for random ops).
    func taskID(_ index: Int) throws -> TaskID? {
        let ids = try tasks().keys.sorted()
        return ids.isEmpty ? nil : ids[index % ids.count]
    }
}

/// A replica over ``InMemorySyncStorage`` and a shared ``InMemoryPeerFolder``.
final class FakeReplica: ReplicaUnderTest {
    let storage: InMemorySyncStorage
    let cycle: SyncCycle
    let clock: TestClock
    /// Where new task ids come from (a seeded source makes a schedule repeatable).
    var makeTaskID: () -> TaskID = { TaskID.make() }

    init(folder: any PeerFolder, clock: TestClock = TestClock(), options: SyncOptions = SyncOptions()) {
        self.clock = clock
        storage = InMemorySyncStorage(clock: clock)
        cycle = SyncCycle(storage: storage, folder: folder, clock: clock, options: options)
    }

    func tasks() throws -> [TaskID: TaskItem] { storage.tasks }

    func add(_ title: String) -> TaskID {
        let id = makeTaskID()
        storage.write(id, [(.title, .string(title)), (.created, .int(clock.nowMillis()))])
        return id
    }

    @discardableResult
    func set(_ id: TaskID, _ fields: [(TaskField, FieldValue)]) -> [FieldChange] { storage.write(id, fields) }

    func apply(_ operation: TaskOperation) throws -> [FieldChange] {
        let now = clock.nowMillis()
        if case .add(let title, let next) = operation {
            let id = makeTaskID()
            var fields: [(TaskField, FieldValue)] = [(.title, .string(title)), (.created, .int(now))]
            if next { fields.append((.nextUp, .string(bottomKey()))) }
            return storage.write(id, fields)
        }
        let index: Int
        switch operation {
        case .set(let i, _, _), .complete(let i), .reopen(let i), .delete(let i), .restore(let i),
             .toNextUp(let i), .fromNextUp(let i), .move(let i, _): index = i
        case .add: return []
        }
        guard let id = try taskID(index), let task = storage.task(id) else { return [] }
        switch operation {
        case .set(_, let field, let value): return storage.write(id, [(field, value)])
        case .complete: return task.isDone ? [] : storage.write(id, [(.done, .int(now))])
        case .reopen: return task.isDone ? storage.write(id, [(.done, .null)]) : []
        case .delete: return storage.write(id, [(.deleted, .bool(true))])
        case .restore: return storage.write(id, [(.deleted, .bool(false))])
        case .toNextUp: return task.isNextUp ? [] : storage.write(id, [(.nextUp, .string(bottomKey()))])
        case .fromNextUp: return storage.write(id, [(.nextUp, .null)])
        case .move(_, let by):
            let tasks = Array(storage.tasks.values)
            guard let place = TaskOperation.place(moving: id, by: by, in: TaskOrdering.nextUp(tasks)) else { return [] }
            let keys = try place.keys(for: id, in: tasks, lastKey: tasks.compactMap(\.nextUpPosition).max())
            return keys.flatMap { storage.write($0.0, [(.nextUp, .string($0.1))]) }
        case .add: return []
        }
    }

    private func bottomKey() -> String {
        OrderKey.between(storage.tasks.values.compactMap(\.nextUpPosition).max(), nil)
    }
}

/// A replica over a real SQLite store and a real peer folder.
final class StoreReplica: ReplicaUnderTest {
    let store: TaskStore
    let engine: SyncEngine
    let folder: TemporaryFolder
    var cycle: SyncCycle { engine.cycle }

    init(peer: URL, clock: any PhysicalClock = SystemClock(), options: SyncOptions = SyncOptions(), storeFolder: TemporaryFolder? = nil,
         watchClock: any MonotonicClock = SystemMonotonicClock(), watchSystem: any WatchSystem = LinuxWatchSystem()) throws {
        folder = try storeFolder ?? TemporaryFolder("replica")
        store = try TaskStore.open(StoreLocation(folder: folder.url), clock: clock)
        engine = SyncEngine(store: store, peerFolder: peer, clock: clock, options: options, watchClock: watchClock, watchSystem: watchSystem)
    }

    func tasks() throws -> [TaskID: TaskItem] {
        Dictionary(uniqueKeysWithValues: try store.allTasks().map { ($0.id, $0) })
    }

    func apply(_ operation: TaskOperation) throws -> [FieldChange] {
        if case .add(let title, let next) = operation {
            var draft = try TaskDraft(title: title)
            draft.nextUp = next
            return try store.add(draft).allChanges
        }
        let index: Int
        switch operation {
        case .set(let i, _, _), .complete(let i), .reopen(let i), .delete(let i), .restore(let i),
             .toNextUp(let i), .fromNextUp(let i), .move(let i, _): index = i
        case .add: return []
        }
        guard let id = try taskID(index) else { return [] }
        switch operation {
        case .set(_, let field, let value): return try store.edit(id, set: [(field, value)]).changes
        case .complete: return try store.complete(id).changes
        case .reopen: return try store.reopen(id).changes
        case .delete: return try store.delete(id).changes
        case .restore: return try store.restore(id).changes
        case .toNextUp: return try store.moveToNextUp(id).changes
        case .fromNextUp: return try store.removeFromNextUp(id).changes
        case .move(_, let by):
            // A move may rewrite several keys (ties); the outbox holds them all.
            guard let place = TaskOperation.place(moving: id, by: by, in: try store.nextUp()) else { return [] }
            let before = try store.outboxCount(after: 0)
            _ = try store.placeInNextUp(id, place)
            let records = try store.outbox(after: 0)
            return records.suffix(max(0, records.count - before)).flatMap(\.changes)
        case .add: return []
        }
    }
}

/// The state every replica must reach: the greatest version of every field
/// among all changes ever made (what ``Merge`` promises).
func expectedState(_ changes: [FieldChange]) -> [TaskID: TaskItem] {
    var tasks: [TaskID: TaskItem] = [:]
    Merge.apply(changes, to: &tasks)
    return tasks
}

/// The fields on which two states differ, in words (empty: equal).
func differences(_ a: [TaskID: TaskItem], _ b: [TaskID: TaskItem]) -> [String] {
    var out: [String] = []
    for id in Set(a.keys).union(b.keys).sorted() {
        guard let x = a[id], let y = b[id] else { out.append("task \(id.short) only on one side"); continue }
        // Every register: known fields, tag elements and opaque fields.
        let fields = Set(TaskField.known).union(x.versions.keys).union(y.versions.keys).sorted()
        for field in fields where x.value(of: field) != y.value(of: field) || x.versions[field] != y.versions[field] {
            out.append("task \(id.short) \(field.rawValue): \(x.value(of: field)) @\(x.versions[field]?.description ?? "-") vs \(y.value(of: field)) @\(y.versions[field]?.description ?? "-")")
        }
    }
    return out
}
