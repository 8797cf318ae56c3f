import Foundation
import NextUpStore
import NextUpSync
import Synchronization

/// The UI's ``SyncSource`` when a vdir is configured and no peer folder: one
/// watcher (the process's only one) on the store folder and the companion's
/// folder; every burst of changes runs the companion (the phone bridge) once
/// on a serial queue, so a phone edit vdirsyncer writes shows up on screen
/// without a key press.
final class CompanionSync: SyncSource, Sendable {
    let store: TaskStore
    let companion: any SyncCompanion
    private let cycles = DispatchQueue(label: "nextup.CompanionSync.cycles")
    private let state = Mutex<(watcher: ChangeWatcher?, display: SyncDisplay, queued: Bool)>((nil, CompanionSync.initialDisplay, false))

    static var initialDisplay: SyncDisplay {
        var display = SyncDisplay(enabled: true)
        display.vdirOnly = true
        return display
    }

    init(store: TaskStore, companion: any SyncCompanion) {
        self.store = store
        self.companion = companion
    }

    func start(post: @escaping @Sendable (LoopEvent) -> Void) throws {
        let storeFolder = store.location.folder.standardizedFileURL.path
        let watcher = ChangeWatcher(
            watching: [store.location.folder, companion.folder],
            ignoring: { SyncEngine.isIgnorableName($0) },
            onProblem: { problem in post(.watchProblem(problem)) },
            onChange: { [weak self] changes in
                if changes.folders.contains(storeFolder) { post(.storeChanged) }
                self?.queueCycle(post: post)
            }
        )
        state.withLock { $0.watcher = watcher }
        try watcher.start()
        queueCycle(post: post)
    }

    private func queueCycle(post: @escaping @Sendable (LoopEvent) -> Void) {
        let queue = state.withLock { s -> Bool in
            guard !s.queued else { return false }
            s.queued = true
            return true
        }
        guard queue else { return }
        cycles.async { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.queued = false; $0.display.isSyncing = true }
            var changed = false
            var problem: String?
            do {
                let result = try self.companion.run()
                changed = result.changedStore
                problem = result.notices.isEmpty ? nil : result.notices.joined(separator: "; ")
            } catch {
                problem = "\(error)"
            }
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            self.state.withLock { s in
                s.display.isSyncing = false
                s.display.problem = problem
                if problem == nil { s.display.lastSuccessMillis = now }
            }
            post(.syncFinished(changedStore: changed))
        }
    }

    func display() -> SyncDisplay { state.withLock { $0.display } }

    func requestSync() { state.withLock { $0.watcher }?.trigger() }

    func stop() {
        let watcher = state.withLock { s -> ChangeWatcher? in defer { s.watcher = nil }; return s.watcher }
        watcher?.stop()
        cycles.sync {}
    }
}
