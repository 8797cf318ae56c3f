import Foundation
import NextUpBridge
import NextUpSync

/// The phone bridge as the sync engine's companion (``SyncCompanion``): the
/// engine watches the vdir and runs a bridge cycle after every peer-folder
/// cycle, publishing what the bridge changed.
struct BridgeCompanion: SyncCompanion {
    let bridge: VdirBridge
    /// Read every file (`nextup sync --full`).
    var readAll = false
    /// Delete for vanished files even when many vanished at once (`nextup sync --accept-deletions`).
    var acceptDeletions = false

    var folder: URL { bridge.folder.url }

    func run() throws -> SyncCompanionResult {
        let report = try bridge.cycle(readAll: readAll, acceptDeletions: acceptDeletions)
        return SyncCompanionResult(changedStore: report.changedStore, lines: report.lines,
                                   notices: report.skipped.map { "vdir: skipped \($0)" } + report.notices.map { "vdir: \($0)" })
    }
}
