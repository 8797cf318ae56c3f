import ArgumentParser
import Foundation
import NextUpCore
import NextUpStore
import NextUpSync

/// `nextup recover [--from FILE]`: rebuilds a damaged store from what
/// survives it. The damaged file is set aside next to it (never deleted),
/// a new store is made, the export given with `--from` is imported into it,
/// and every log in the peer folder is merged (this replica's own log holds
/// every change it ever published; the other machines' logs hold theirs).
/// Refuses, changing nothing, when the store is not damaged, another
/// process still has it open, or there is nothing to rebuild it from.
struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Rebuild a damaged store from the peer folder's logs or an export (the damaged file is kept aside).",
        discussion: """
            The damaged file is renamed nextup-damaged-<time>.sqlite in the store folder, never deleted. \
            Changes made on this machine since its last sync and not yet in its log cannot be recovered.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("An export to rebuild from (as `nextup export` writes it), with or without a peer folder.", valueName: "file"))
    var from: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let config = try CommandContext.loadConfig(environment: environment)
        let location = StoreLocation.resolve(option: global.store, environment: environment)
        guard TaskStore.isDamaged(location) else {
            throw CLIError("the store \(location.databaseURL.path) is not damaged; nothing was changed (`nextup doctor` checks a store)")
        }
        // A TUI or `sync --watch` still holding the damaged file would go on writing to it under its new name.
        if let pid = TaskStore.processHoldingOpen(location) {
            throw CLIError("another program (process \(pid)) still has the store open: quit the TUI and stop `nextup sync --watch`, "
                           + "then run `nextup recover` again (nothing was changed)")
        }
        let peerSetting = global.peer ?? environment["NEXTUP_PEER"].flatMap { $0.isEmpty ? nil : $0 } ?? config.peerFolder
        guard peerSetting != nil || from != nil else {
            throw CLIError("nothing to rebuild the store from: no peer folder is set; give the last export with --from FILE (nothing was changed)")
        }
        // Everything is read and checked before the damaged file is moved.
        let records = try from.map { try JSONOutput.decodeTasks(ImportCommand.contents(of: $0)) }
        if let peerSetting {
            do { try LocalPeerFolder(url: URL(fileURLWithPath: peerSetting)).checkAvailable() } catch {
                throw CLIError("\(error); nothing was changed")
            }
        }

        let aside = try TaskStore.setAside(location)
        print("set the damaged store aside as \(aside)")
        var imported: TaskStore.ImportSummary?
        let context = try CommandContext.open(global, environment: environment, creating: true) { location in
            guard let records else { return try TaskStore.open(location) }
            let opened = try TaskStore.openImporting(location, records)
            imported = opened.summary
            return opened.store
        }
        if let imported, let from {
            print("recovered \(imported.created) tasks from \(from)")
        }
        if let peer = context.peerFolder {
            let report: SyncReport
            do {
                report = try SyncEngine(store: context.store, peerFolder: peer, options: .oneShot).syncOnce(full: true)
            } catch {
                throw CLIError("\(SyncError.describe(error)); the new store holds what was recovered before this")
            }
            let logs = report.peers.count
            print("recovered \(report.changedTasks.count) tasks from \(logs) log\(logs == 1 ? "" : "s") in \(peer.path)")
            report.notices.filter { $0.hasPrefix("skipped") }.forEach { print($0) }
        }
        let counts = try context.store.counts()
        print("the store now holds \(counts.open) open, \(counts.done) done and \(counts.deleted) deleted tasks; "
              + "changes made here since the last sync and not in the peer folder could not be recovered")
    }
}
