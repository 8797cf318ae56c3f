import Foundation
import NextUpBridge
import NextUpConfig
import NextUpSync
#if canImport(Glibc)
import Glibc
#endif

/// `nextup sync --watch` with a vdir and no peer folder: one watcher on the
/// store folder and the vdir; every burst of changes runs one bridge cycle
/// (on a serial queue, so cycles never overlap), printing what it did; until
/// SIGINT or SIGTERM.
struct BridgeWatch {
    let bridge: VdirBridge

    func runUntilInterrupted() throws {
        let interruption = Interruption()
        let cycles = DispatchQueue(label: "nextup.bridge.cycles")
        let bridge = self.bridge
        let runCycle: @Sendable () -> Void = {
            cycles.async {
                do {
                    let report = try bridge.cycle()
                    if report.changedStore || report.written > 0 || report.removed > 0 || !report.skipped.isEmpty || !report.notices.isEmpty {
                        let time = LocalTime.clock(atMillis: LocalTime.nowMillis)
                        report.lines.enumerated().forEach { print($0.offset == 0 ? "\(time) \($0.element)" : $0.element) }
                    }
                } catch {
                    Terminal.printError("nextup: \(error)")
                }
                fflush(nil)
            }
        }
        let watcher = ChangeWatcher(
            watching: [bridge.store.location.folder, bridge.folder.url],
            ignoring: { $0.hasSuffix(".tmp") || SyncEngine.isIgnorableName($0) || $0 == VdirBridge.lockFileName },
            onProblem: { problem in if let problem { Terminal.printError("nextup: \(problem)") } },
            onChange: { _ in runCycle() }
        )
        try watcher.start()
        print("watching \(bridge.store.location.folder.path) and \(bridge.folder.url.path); press Ctrl-C to stop")
        fflush(nil)
        runCycle()
        interruption.wait()
        watcher.stop()
        cycles.sync {}
        print("stopped")
        fflush(nil)
    }
}
