import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpSync

/// The two ``SyncStorage`` implementations, for contract suites run against both.
enum StorageKind: String, CaseIterable, CustomTestStringConvertible {
    case taskStore
    case inMemory
    var testDescription: String { rawValue }
}

/// A storage of either kind plus a way to make local edits through the
/// store's own write path.
final class StorageFixture: @unchecked Sendable {
    let storage: any SyncStorage
    let store: TaskStore?
    let memory: InMemorySyncStorage?
    private let temporary: TemporaryFolder?

    init(_ kind: StorageKind, clock: any PhysicalClock = SystemClock()) throws {
        switch kind {
        case .taskStore:
            let temp = try TemporaryFolder("store")
            temporary = temp
            let store = try TaskStore.open(StoreLocation(folder: temp.url), clock: clock)
            self.store = store
            memory = nil
            storage = TaskStoreSyncStorage(store: store)
        case .inMemory:
            temporary = nil
            store = nil
            let memory = InMemorySyncStorage(clock: clock)
            self.memory = memory
            storage = memory
        }
    }

    /// Makes a task with a title; returns its id.
    func add(_ title: String) throws -> TaskID {
        if let store { return try store.add(TaskDraft(title: title)).id }
        let id = TaskID.make()
        memory!.write(id, [(.title, .string(title)), (.created, .int(memory!.clock.nowMillis()))])
        return id
    }

    /// Sets fields locally; returns the changes made.
    @discardableResult
    func edit(_ id: TaskID, _ fields: [(TaskField, FieldValue)]) throws -> [FieldChange] {
        if let store { return try store.edit(id, set: fields).changes }
        return memory!.write(id, fields)
    }

    func task(_ id: TaskID) throws -> TaskItem? {
        if let store { return try store.task(id) }
        return memory!.task(id)
    }

    func allTasks() throws -> [TaskID: TaskItem] {
        if let store { return Dictionary(uniqueKeysWithValues: try store.allTasks().map { ($0.id, $0) }) }
        return memory!.tasks
    }
}

func withStorage<T>(_ kind: StorageKind, clock: any PhysicalClock = SystemClock(), _ body: (StorageFixture) throws -> T) throws -> T {
    let fixture = try StorageFixture(kind, clock: clock)
    return try withExtendedLifetime(fixture) { try body(fixture) }
}
