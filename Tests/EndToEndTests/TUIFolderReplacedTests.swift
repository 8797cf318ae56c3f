import Foundation
import Testing

/// Issue 13: when the peer folder is removed and made again with the same
/// contents (a remount: a new folder where the old one was), the TUI's
/// watch is re-established — another replica's changes appear within about
/// a second again, not only at the next stat poll (every 3 s).
@Suite struct TUIFolderReplacedTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    func waitFor(_ tmux: TUITmux, _ text: String, timeout: Double = 15) throws -> Bool {
        try tmux.waitForScreen(timeout: timeout) { $0.contains { $0.contains(text) } }.ok
    }

    @Test func changesArriveFastAgainAfterThePeerFolderIsReplaced() throws {
        let peer = scratch.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let other = ["--store", scratch.path("other").path, "--peer", peer.path]
        #expect(try cli.run(other + ["add", "Before the remount"]).status == 0)
        let tmux = try TUITmux(environment: cli.environment, width: 100, height: 30)
        try tmux.run("\"\(NextupProcess.binary.path)\" --peer \"\(peer.path)\"")
        #expect(try waitFor(tmux, "Before the remount"))

        // A new folder, same contents, where the old one was.
        let copy = scratch.path("peer.new")
        try FileManager.default.copyItem(at: peer, to: copy)
        try FileManager.default.removeItem(at: peer)
        try FileManager.default.moveItem(at: copy, to: peer)

        // The first change may wait for the poll tick that watches the new
        // folder; from then on each arrives by inotify, inside 2 s of the 3 s
        // poll interval.
        #expect(try cli.run(other + ["add", "After the remount"]).status == 0)
        #expect(try waitFor(tmux, "After the remount"), "\((try? tmux.screen()) ?? [])")
        for i in 1...3 {
            #expect(try cli.run(other + ["add", "Quick \(i)"]).status == 0)
            let start = Date()
            #expect(try waitFor(tmux, "Quick \(i)", timeout: 10))
            let took = Date().timeIntervalSince(start)
            #expect(took < 2.0, "change \(i) took \(took) s: the folder is polled (every 3 s), not watched")
        }
        try tmux.keys("q")
    }
}
