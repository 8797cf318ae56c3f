import Foundation
import NextUpBridge
import NextUpCore
import NextUpStore
import NextUpSync
import NextUpTestSupport
import Synchronization
import Testing
@testable import NextUpTUI

/// The TUI's background sync watches the vdir too (DESIGN.md §5b): a file
/// that vdirsyncer writes there becomes a task and reaches the loop as a
/// sync that changed the store — with a peer folder (the engine's watcher,
/// the bridge as its companion) and without one (``CompanionSync``).
@Suite struct VdirWatchTests {
    final class Posted: Sendable {
        let events = Mutex<[LoopEvent]>([])
        var all: [LoopEvent] { events.withLock { $0 } }
    }

    /// The bridge as the engine's companion (the CLI's adapter, in small).
    struct Companion: SyncCompanion {
        let bridge: VdirBridge
        var folder: URL { bridge.folder.url }
        func run() throws -> SyncCompanionResult {
            let report = try bridge.cycle()
            return SyncCompanionResult(changedStore: report.changedStore, lines: report.lines, notices: report.skipped)
        }
    }

    static let phoneFile = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:from-the-phone\r\nSUMMARY:Arrived from the phone\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"

    func check(peer: Bool) throws {
        let temp = TemporaryFolder()
        let vdir = temp.path("vdir"), peerFolder = temp.path("peer")
        for folder in [vdir, peerFolder] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let store = try TaskStore.open(StoreLocation(folder: temp.path("store")))
        let companion = Companion(bridge: VdirBridge(store: store, folder: vdir))
        let sync: SyncSource = peer ? EngineSync(store: store, peerFolder: peerFolder, companion: companion)
            : CompanionSync(store: store, companion: companion)
        let posted = Posted()
        try sync.start(post: { event in posted.events.withLock { $0.append(event) } })
        defer { sync.stop() }
        #expect(eventually { sync.display().lastSuccessMillis != nil })
        let before = posted.all.count
        // As vdirsyncer does: a temporary file renamed into place.
        let landed = Date()
        try Data(Self.phoneFile.utf8).write(to: vdir.appendingPathComponent(".from-the-phone.ics.tmp"))
        try FileManager.default.moveItem(at: vdir.appendingPathComponent(".from-the-phone.ics.tmp"),
                                         to: vdir.appendingPathComponent("from-the-phone.ics"))
        let reader = try TaskStore.open(StoreLocation(folder: temp.path("store")))
        #expect(eventually { (try? reader.allTasks().map(\.title)) == ["Arrived from the phone"] })
        let latency = Date().timeIntervalSince(landed)
        #expect(eventually { posted.all.dropFirst(before).contains(.syncFinished(changedStore: true)) })
        #expect(latency < 5, "a phone edit took \(latency) s to reach the store")
        let words = StatusView.syncText(sync.display(), nowMillis: Int64(Date().timeIntervalSince1970 * 1000)).0
        #expect(words.contains(peer ? "peers" : "vdir"), "\(words)")
        if peer {
            // What the bridge made is published to the peer folder too.
            #expect(eventually { sync.display().pendingLocalChanges == 0 })
        }
    }

    @Test func aFileLandingInTheVdirReachesTheStoreThroughTheEngine() throws { try check(peer: true) }

    @Test func aFileLandingInTheVdirReachesTheStoreWithoutAPeerFolder() throws { try check(peer: false) }
}
