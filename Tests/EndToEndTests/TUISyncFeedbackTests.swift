import Foundation
import Testing

/// Issue 13's sync feedback in a real terminal: a damaged line in another
/// replica's log is shown in the status bar and reported by doctor; r says
/// what the cycle did.
@Suite struct TUISyncFeedbackTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }


    @Test func aDamagedPeerLineIsShownAndReportedAndRSaysWhatItDid() throws {
        let peer = scratch.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let other = ["--store", scratch.path("other").path, "--peer", peer.path]
        #expect(try cli.run(other + ["add", "First from the other machine"]).status == 0)
        #expect(try cli.run(other + ["add", "Second from the other machine"]).status == 0)
        // Damage one byte in the middle of its first change line.
        let log = try #require(try FileManager.default.contentsOfDirectory(atPath: peer.path).first { $0.hasSuffix(".log") })
        var lines = try String(contentsOf: peer.appendingPathComponent(log), encoding: .utf8).components(separatedBy: "\n")
        var damaged = Array(lines[1])
        damaged[damaged.count / 2] = damaged[damaged.count / 2] == "X" ? "Y" : "X"
        lines[1] = String(damaged)
        try lines.joined(separator: "\n").write(to: peer.appendingPathComponent(log), atomically: false, encoding: .utf8)

        #expect(try cli.run(["import", "-"], stdin: "[]").status == 0)
        let doctor = try cli.run("--peer", peer.path, "doctor")
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("problem: skipped: \(log), byte"), "\(doctor)")
        #expect(doctor.stdout.contains("line is damaged (checksum mismatch)"), "\(doctor)")

        let tmux = try TUITmux(environment: cli.environment, width: 100, height: 30)
        try tmux.run("\"\(NextupProcess.binary.path)\" --peer \"\(peer.path)\"")
        try tmux.expectToSee("Second from the other machine")
        try tmux.expectToSee("checksum mismatch")
        // What the start-up sync brought is said first; a key goes on.
        try tmux.expectToSee("While you were away")
        try tmux.keys("Escape")
        #expect(try tmux.waitForScreen { !$0.contains { $0.contains("While you were away") } }.ok)
        try tmux.keys("r")
        try tmux.expectToSee("synced: uploaded 0 changes")
        try tmux.keys("q")
    }
}
