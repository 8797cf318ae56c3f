import Foundation
import NextUpStore
import NextUpSync
import Synchronization

/// The sync engine behind the UI's ``SyncSource``: syncs the store with the
/// peer folder on its own thread and reports its state in the UI's terms.
final class EngineSync: SyncSource, Sendable {
    let engine: SyncEngine
    private let counter = Atomic<Int>(0)

    var signals: Int { counter.load(ordering: .acquiring) }

    init(store: TaskStore, peerFolder: URL) {
        engine = SyncEngine(store: store, peerFolder: peerFolder)
    }

    func start(onChange: @escaping @Sendable () -> Void) throws {
        engine.start(onChange: { [self] in
            counter.add(1, ordering: .releasing)
            onChange()
        })
    }

    func display() -> SyncDisplay {
        let s = engine.status
        return SyncDisplay(enabled: true, isSyncing: s.isSyncing, lastSuccessMillis: s.lastSuccessMillis,
                           peers: s.peersSeen, pendingLocalChanges: s.pendingLocalChanges,
                           problem: s.lastError, skewWarning: s.skewWarning)
    }

    func requestSync() { engine.requestSync() }
    func stop() { engine.stop() }
}
