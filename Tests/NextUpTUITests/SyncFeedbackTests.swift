import NextUpCore
import NextUpSync
import Testing
@testable import NextUpTUI

/// Issue 13's sync feedback: r says "syncing…" until a later cycle finished,
/// then its result; what a cycle skipped shows in the status bar.
@Suite struct SyncFeedbackTests {
    @Test func rSaysSyncingThenTheResult() {
        var s = Fixture.state([])
        var sync = SyncDisplay(enabled: true, lastSuccessMillis: Fixture.now - 60_000, peers: 1)
        sync.cyclesFinished = 3
        _ = s.send(.syncStatus(sync))
        #expect(s.send(Fixture.keys("r")) == [.syncNow])
        #expect(s.message?.text == "syncing…")
        #expect(MainView.frame(s).text.last!.contains("syncing…"))
        // The same cycle count: still waiting.
        _ = s.send(.syncStatus(sync))
        #expect(MainView.frame(s).text.last!.contains("syncing…"))
        sync.cyclesFinished = 4
        sync.lastSuccessMillis = Fixture.now
        sync.summary = "uploaded 1 change; merged 0 changes into 0 tasks from 1 peer"
        _ = s.send(.syncStatus(sync))
        #expect(s.message?.text == "synced: uploaded 1 change; merged 0 changes into 0 tasks from 1 peer")
        #expect(!MainView.frame(s).text.last!.contains("syncing…"))
        #expect(MainView.frame(s).text.last!.contains("synced just now · 1 peer"))

        _ = s.send(Fixture.keys("r"))
        sync.cyclesFinished = 5
        sync.problem = "peer folder /mnt/x does not exist (is it mounted?)"
        _ = s.send(.syncStatus(sync))
        #expect(s.message == AppState.Message(text: "sync failed: peer folder /mnt/x does not exist (is it mounted?)", isError: true,
                                               untilMillis: Fixture.now + AppState.messageMillis))
    }

    @Test func skippedLinesShowInTheStatusBar() {
        var s = Fixture.state([], width: 200)
        var sync = SyncDisplay(enabled: true, lastSuccessMillis: Fixture.now, peers: 1)
        sync.notices = ["rewrote this replica's log (first sync)",
                        "skipped: nextup-1f0f0f0f-0000-4000-8000-000000000000.log, byte 178: line is damaged (checksum mismatch); line skipped"]
        _ = s.send(.syncStatus(sync))
        let bar = MainView.frame(s).lines.last!
        #expect(bar.text.hasPrefix(" skipped: nextup-1f0f0f0f….log, byte 178: line is damaged (checksum mismatch); line skipped · synced just now · 1 peer"))
        #expect(!bar.text.contains("rewrote"))
        #expect(bar.spans.contains { $0.style == .statusProblem })
    }

    /// Issue 37: a peer's torn last line (a dead machine's, or one still
    /// being written) is not damage: "synced … ago" keeps the bar.
    @Test func aTornLastLineDoesNotTakeOverTheStatusBar() {
        var s = Fixture.state([], width: 80)
        var report = SyncReport()
        report.issues = [LogIssue(file: "nextup-1f0f0f0f-0000-4000-8000-000000000000.log", offset: 5_000, kind: .incompleteLastLine(bytes: 17))]
        var sync = SyncDisplay(enabled: true, lastSuccessMillis: Fixture.now, peers: 1)
        sync.notices = report.notices
        _ = s.send(.syncStatus(sync))
        let bar = MainView.frame(s).lines.last!
        #expect(bar.text.hasPrefix(" synced just now · 1 peer"), "\(bar.text)")
        #expect(!bar.spans.contains { $0.style == .statusProblem })
    }
}

@Suite struct SyncNeverRanTests {
    @Test func aSyncThatNeverRunsStopsSayingSyncing() {
        var s = Fixture.state([])
        _ = s.send(.syncStatus(SyncDisplay(enabled: true, problem: "sync could not start")))
        _ = s.send(Fixture.keys("r"))
        #expect(MainView.frame(s).text.last!.contains("syncing…") || MainView.frame(s).text.last!.contains("sync could not start"))
        _ = s.send(.tick(nowMillis: Fixture.now + AppState.syncAnswerMillis))
        #expect(s.syncAwaited == nil)
        #expect(s.message?.text == "no sync cycle ran: sync could not start")
    }
}
