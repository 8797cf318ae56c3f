import ArgumentParser
import Foundation
import NextUpBridge
import NextUpConfig
import NextUpCore
import NextUpStore
import NextUpSync
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `nextup sync [--full] [--watch]` (DESIGN.md §5): one sync cycle with the
/// peer folder, printing what it uploaded and merged, from how many peers, and
/// any file it skipped and why; or, with `--watch`, keep syncing on local
/// commits and peer changes until SIGINT or SIGTERM. With a vdir (`--vdir`,
/// DESIGN.md §5b), the phone bridge runs after every peer-folder cycle (or
/// alone, when no peer folder is configured) and its folder is watched too.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync with the peer folder and the vdir: once, or keep watching with --watch."
    )

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Re-read every peer log from its start (always safe).")
    var full = false

    @Flag(name: .long, help: "Keep running: sync on local commits and peer changes until interrupted.")
    var watch = false

    @Flag(name: .long, help: "Use this peer folder even though it is not the one this store synced with (a new share on purpose).")
    var adoptFolder = false

    @Flag(name: .long, help: "Delete the tasks of vdir files that vanished, even when many vanished at once.")
    var acceptDeletions = false

    func run() throws {
        let context = try CommandContext.open(global, creating: true)
        guard let peer = context.peerFolder else {
            guard let bridge = try context.bridge() else {
                throw CLIError("no peer folder or vdir is configured: pass --peer DIR or --vdir DIR, set NEXTUP_PEER or NEXTUP_VDIR, or set `peer` or `vdir` in the config file")
            }
            if watch { try BridgeWatch(bridge: bridge).runUntilInterrupted() } else { try bridgeOnce(bridge) }
            return
        }
        // A missing vdir does not hold up the peer folder: the peer cycle
        // runs, then the vdir's problem is said (and the exit status is 1).
        let bridge = context.vdir.map { VdirBridge(store: context.store, folder: $0) }
        // Watching, other processes (a TUI) write meanwhile: short transactions.
        let engine = SyncEngine(store: context.store, peerFolder: peer, options: watch ? SyncOptions() : .oneShot,
                                companion: bridge.map { BridgeCompanion(bridge: $0, readAll: full, acceptDeletions: acceptDeletions) })
        if watch {
            if adoptFolder { try syncOnce(engine) }
            try watchUntilInterrupted(engine, peer: peer)
            return
        }
        try syncOnce(engine)
        // Housekeeping: `[history] keep` (HistoryRetention says what may go).
        if let days = context.config.historyKeepDays,
           let dropped = try? HistoryRetention.apply(context.store, keepDays: days, now: LocalTime.nowMillis), dropped > 0 {
            print("history: \(dropped) replaced value\(dropped == 1 ? "" : "s") older than \(days) days dropped")
        }
    }

    private func syncOnce(_ engine: SyncEngine) throws {
        let report: SyncReport
        do {
            report = try engine.syncOnce(full: full, adoptFolder: adoptFolder)
        } catch {
            throw CLIError(SyncError.describe(error))
        }
        // The vdir's problem goes to stderr, as the one line of a failure.
        let problemLine = report.companionError.map { "warning: \($0)" }
        report.lines.filter { $0 != problemLine }.forEach { print($0) }
        if let problem = report.companionError { throw CLIError(problem) }
    }

    private func bridgeOnce(_ bridge: VdirBridge) throws {
        do {
            try bridge.cycle(readAll: full, acceptDeletions: acceptDeletions).lines.forEach { print($0) }
        } catch {
            throw CLIError("\(error)")
        }
    }

    private func watchUntilInterrupted(_ engine: SyncEngine, peer: URL) throws {
        // Fail at once, with the usual one line, when the folder is unusable.
        do { try LocalPeerFolder(url: peer).checkAvailable() } catch { throw CLIError(SyncError.describe(error)) }
        let interruption = Interruption()
        let also = engine.companion.map { " and \($0.folder.path)" } ?? ""
        print("watching \(engine.store.location.folder.path), \(peer.path)\(also); press Ctrl-C to stop")
        fflush(nil)
        let printer = WatchPrinter(engine: engine)
        engine.start(onChange: { printer.cycleEnded() })
        interruption.wait()
        engine.stop()
        print("stopped")
        fflush(nil)
    }
}

/// Prints one line per background cycle that changed something (what it
/// uploaded and merged), nothing for a quiet one; an error once until it
/// changes or clears; each notice (a file skipped as damaged, a repair) once.
private final class WatchPrinter: Sendable {
    let engine: SyncEngine
    private struct Seen {
        var notices: Set<String> = []
        var cycles = 0
        var error: String?
        var watchProblem: String?
    }
    private let seen = Mutex(Seen())
    init(engine: SyncEngine) { self.engine = engine }

    func cycleEnded() {
        let status = engine.status
        var lines: [String] = [], errors: [String] = []
        seen.withLock { seen in
            if status.watchProblem != seen.watchProblem {
                if let problem = status.watchProblem { errors.append("nextup: \(problem)") }
                seen.watchProblem = status.watchProblem
            }
            guard status.cyclesFinished != seen.cycles else { return }
            seen.cycles = status.cyclesFinished
            if let error = status.lastError {
                if error != seen.error { errors.append("nextup: \(error)") }
                seen.error = error
                return
            }
            if seen.error != nil {
                lines.append("\(Self.time()) syncing again")
                seen.error = nil
            }
            if status.lastUploaded > 0 || status.lastMerged > 0, let summary = status.lastSummary {
                lines.append("\(Self.time()) \(summary)")
            }
            if let skew = status.skewWarning, seen.notices.insert(skew).inserted { lines.append("warning: \(skew)") }
            for notice in status.notices where seen.notices.insert(notice).inserted { lines.append(notice) }
        }
        errors.forEach { Terminal.printError($0) }
        lines.forEach { print($0) }
        fflush(nil)
    }

    static func time() -> String { LocalTime.clock(atMillis: LocalTime.nowMillis) }
}
