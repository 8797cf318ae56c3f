import Foundation
import NextUpStore
import NextUpSync

/// The sync engine behind the UI's ``SyncSource``: syncs the store with the
/// peer folder on its own thread and reports its state and events in the
/// UI's terms.
final class EngineSync: SyncSource, Sendable {
    let engine: SyncEngine

    init(store: TaskStore, peerFolder: URL, companion: (any SyncCompanion)? = nil) {
        engine = SyncEngine(store: store, peerFolder: peerFolder, companion: companion)
    }

    func start(post: @escaping @Sendable (LoopEvent) -> Void) throws {
        engine.start(onEvent: { [engine] event in
            switch event {
            case .storeFolderChanged: post(.storeChanged)
            case .peerFolderChanged: post(.peerFolderChanged)
            // Merged: shown at once, while the cycle goes on uploading.
            case .merged: post(.syncFinished(changedStore: true))
            case .syncFinished(let changedStore): post(.syncFinished(changedStore: changedStore))
            case .statusChanged:
                post(.watchProblem(engine.status.watchProblem))
                post(.syncFinished(changedStore: false))
            }
        })
    }

    func display() -> SyncDisplay {
        let s = engine.status
        let problems = [s.lastError, s.watchProblem].compactMap { $0 }
        var display = SyncDisplay(enabled: true, isSyncing: s.isSyncing, lastSuccessMillis: s.lastSuccessMillis,
                                  peers: s.peersSeen, pendingLocalChanges: s.pendingLocalChanges,
                                  problem: problems.isEmpty ? nil : problems.joined(separator: "; "), skewWarning: s.skewWarning)
        display.notices = s.notices
        display.cyclesFinished = s.cyclesFinished
        display.summary = s.lastSummary
        return display
    }

    func requestSync() { engine.requestSync() }
    func stop() { engine.stop() }
}
