import Foundation
import Testing

/// Issue 36 with the built binary: two stores over one peer folder, a race
/// on a title, its loser marked on both machines and restored; `changes`
/// after another machine edited; bad input in one line.
@Suite struct HistoryEndToEndTests {
    let scratch = Scratch()

    func nextup(_ store: String) -> NextupProcess {
        NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path(store).path, "NEXTUP_PEER": scratch.path("peer").path])
    }

    func history(_ process: NextupProcess, _ id: String) throws -> [[String: Any]] {
        let result = try process.run("show", id, "--history", "--json")
        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        return object["history"] as? [[String: Any]] ?? []
    }

    /// The entries without their handles (which name the field's current version too).
    func comparable(_ entries: [[String: Any]]) -> [String] {
        entries.map { e in
            let lost = (e["lost_to"] as? [String: Any]).map { "\($0["machine"] ?? "")@\($0["version"] ?? "")" } ?? "-"
            return (["field", "old", "new", "machine", "origin", "version"].map { "\(e[$0] ?? "nil")" } + [lost]).joined(separator: "|")
        }
    }

    @Test func aTitleRaceIsMarkedOnBothMachinesAndTheLoserIsRestored() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let laptop = nextup("a"), desktop = nextup("b")
        let id = String(try laptop.run("add", "Buy milk").out.prefix(8))
        #expect(try laptop.run("machine", "laptop").out == "laptop")
        #expect(try desktop.run("sync").status == 0)
        #expect(try desktop.run("machine", "desktop").out == "desktop")
        // Apart: both change the title without seeing the other's change.
        #expect(try laptop.run("edit", id, "--title", "Buy oat milk").status == 0)
        #expect(try desktop.run("edit", id, "--title", "Buy soy milk").status == 0)
        #expect(try laptop.run("sync").status == 0)
        #expect(try desktop.run("sync").status == 0)

        let onLaptop = try history(laptop, id), onDesktop = try history(desktop, id)
        #expect(comparable(onLaptop) == comparable(onDesktop), "\(onLaptop)\n\(onDesktop)")
        let loser = try #require(onLaptop.first { ($0["lost_to"] as? [String: Any]) != nil })
        let winner = try #require(onLaptop.first { $0["current"] as? Bool == true && $0["field"] as? String == "title" })
        #expect(loser["field"] as? String == "title")
        let lostTo = (loser["lost_to"] as? [String: Any])?["machine"] as? String
        #expect(lostTo == winner["machine"] as? String)
        #expect(lostTo != loser["machine"] as? String)
        let text = try desktop.run("show", id, "--history").stdout
        #expect(text.contains("lost a race with \(lostTo!)'s edit"), "\(text)")

        // Restored from the laptop's history: the lost title comes back, on both machines.
        let handle = try #require(loser["entry"] as? String)
        let restored = try laptop.run("restore", id, "--entry", handle)
        #expect(restored.status == 0, "\(restored)")
        #expect(try desktop.run("sync").status == 0)
        for machine in [laptop, desktop] {
            #expect(try machine.run("show", id, "--json").stdout.contains("\"title\" : \(String(describing: loser["new"]!).debugDescription)"))
        }
        // The same handle again: the title moved on since that history was shown.
        let stale = try laptop.run("restore", id, "--entry", handle)
        #expect(stale.status != 0)
        #expect(stale.stderr.split(separator: "\n").count == 1)
        #expect(stale.stderr.contains("changed since that history was shown"), "\(stale)")
        let unknown = try laptop.run("restore", id, "--entry", "nothing1")
        #expect(unknown.status != 0 && unknown.stderr.contains("has no history entry"), "\(unknown)")
    }

    @Test func changesListsWhatAnotherMachineDidWhileThisOneWasOff() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let laptop = nextup("a"), desktop = nextup("b")
        let id = String(try laptop.run("add", "Call the bank").out.prefix(8))
        #expect(try laptop.run("machine", "laptop").status == 0)
        #expect(try desktop.run("sync").status == 0)
        #expect(try desktop.run("changes").stdout.contains("Call the bank"))
        #expect(try desktop.run("changes").stdout.hasPrefix("nothing new from other machines"))
        // The desktop is off; the laptop works.
        #expect(try laptop.run("edit", id, "--urgency", "urgent", "--tag", "money").status == 0)
        #expect(try laptop.run("done", id).status == 0)
        #expect(try desktop.run("sync").status == 0)
        let changes = try desktop.run("changes")
        #expect(changes.status == 0, "\(changes)")
        #expect(changes.stdout.contains("Call the bank"), "\(changes)")
        #expect(changes.stdout.contains("laptop  urgency: unset → “urgent”"), "\(changes)")
        #expect(changes.stdout.contains("laptop  tag money added"), "\(changes)")
        #expect(changes.stdout.contains("laptop  done"), "\(changes)")
        #expect(try desktop.run("changes").stdout.hasPrefix("nothing new from other machines"))
        // --since reads again without moving the mark.
        #expect(try desktop.run("changes", "--since", "1h").stdout.contains("tag money added"))
        let bad = try desktop.run("changes", "--since", "yesterdayish")
        #expect(bad.status != 0 && bad.stderr.split(separator: "\n").count == 1, "\(bad)")
        let badName = try desktop.run("machine", "")
        #expect(badName.status != 0 && badName.stderr.contains("machine name"), "\(badName)")
    }

    @Test func statusNamesTheMachineThatHasNotMergedTheLastChange() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let laptop = nextup("a"), desktop = nextup("b"), server = nextup("c")
        #expect(try laptop.run("machine", "laptop").status == 0)
        #expect(try desktop.run("machine", "desktop").status == 0)
        #expect(try server.run("machine", "server").status == 0)
        let id = String(try laptop.run("add", "Renew the passport").out.prefix(8))
        // A machine says how far it merged on a line of its own changes: each has made one.
        #expect(try desktop.run("add", "Water the plants").status == 0)
        #expect(try server.run("add", "Rotate the backups").status == 0)
        for machine in [desktop, server, laptop] { #expect(try machine.run("sync").status == 0) }
        #expect(try laptop.run("edit", id, "--due", "2026-12-24").status == 0)
        // The desktop merges the change and says so in its log; the server is off.
        #expect(try desktop.run("sync").status == 0)
        #expect(try laptop.run("sync").status == 0)
        let status = try laptop.run("status")
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("this machine: laptop"), "\(status)")
        #expect(status.stdout.contains("desktop: has it since just now"), "\(status)")
        #expect(status.stdout.contains("server: not yet, last seen just now"), "\(status)")
        // The server comes back.
        #expect(try server.run("sync").status == 0)
        #expect(try laptop.run("sync").status == 0)
        #expect(try laptop.run("status").stdout.contains("server: has it since just now"))
    }

    /// `[history] keep = "90d"`: `sync` keeps a replaced value older than
    /// that while another machine has not merged past it, and drops it once
    /// that machine's delivery mark says it has — keeping the newest old
    /// value, so every entry left still shows what it replaced.
    @Test func syncDropsOldValuesOnlyOnceEveryMachineHasMergedPastThem() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let config = scratch.path("keep.toml")
        try "[history]\nkeep = \"90d\"\n".write(to: config, atomically: true, encoding: .utf8)
        let laptop = NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("a").path, "NEXTUP_PEER": scratch.path("peer").path,
                                                             "NEXTUP_CONFIG": config.path, "FAKETIME_DONT_FAKE_MONOTONIC": "1"])
        let desktop = nextup("b")
        // The desktop has a change of its own (a delivery mark rides on one).
        #expect(try desktop.run("add", "Water the plants").status == 0)
        #expect(try desktop.run("sync").status == 0)
        // A hundred days ago, on the laptop: three titles.
        let past = ["/usr/bin/faketime", "-f", "-100d"]
        let id = String(try laptop.run(["add", "Title one"], prefix: past).out.prefix(8))
        #expect(try laptop.run(["edit", id, "--title", "Title two"], prefix: past).status == 0)
        #expect(try laptop.run(["edit", id, "--title", "Title three"], prefix: past).status == 0)
        func titles() throws -> [String] {
            try history(laptop, id).filter { $0["field"] as? String == "title" }.compactMap { $0["new"] as? String }
        }
        // Today: the desktop has not merged them yet — all kept.
        let first = try laptop.run("sync")
        #expect(first.status == 0 && !first.stdout.contains("history:"), "\(first)")
        #expect(try titles() == ["Title three", "Title two", "Title one"])
        // The desktop merges and says so; the laptop's next sync drops the oldest.
        #expect(try desktop.run("sync").status == 0)
        let second = try laptop.run("sync")
        #expect(second.stdout.contains("history: 1 replaced value older than 90 days dropped"), "\(second)")
        let left = try history(laptop, id).filter { $0["field"] as? String == "title" }
        #expect(left.compactMap { $0["new"] as? String } == ["Title three", "Title two"])
        #expect(left.first?["old"] as? String == "Title two")
        try "[history]\nkeep = \"3 months\"\n".write(to: config, atomically: true, encoding: .utf8)
        let refused = try laptop.run("list")
        #expect(refused.status != 0 && refused.stderr.contains("'history.keep' must be"), "\(refused)")
    }
}
