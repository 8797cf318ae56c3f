import Foundation
import Testing

/// Issue 14: a change another replica publishes right after the TUI starts
/// shows without a key press, while the start-up reconcile runs.
@Suite struct TUIFirstPeerChangeTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    @Test func aPeerChangeMadeRightAfterStartShowsOnScreen() throws {
        let peer = scratch.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let other = ["--store", scratch.path("other").path, "--peer", peer.path]
        for n in 1...3 { #expect(try cli.run(other + ["add", "Known task \(n)"]).status == 0) }
        // This store has synced before: the TUI's start-up reconcile re-reads the other's log.
        #expect(try cli.run("--peer", peer.path, "sync").status == 0)

        let tmux = try TUITmux(environment: cli.environment, width: 100, height: 30)
        try tmux.run("\"\(NextupProcess.binary.path)\" --peer \"\(peer.path)\"")
        // At once, not after the first screen.
        #expect(try cli.run(other + ["add", "Arrived right after the start"]).status == 0)
        try tmux.expectToSee("Arrived right after the start")
        try tmux.expectToSee("Known task 3")
        try tmux.keys("q")
    }
}
