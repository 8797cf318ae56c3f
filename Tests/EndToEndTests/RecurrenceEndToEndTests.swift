import Foundation
import Testing

/// Recurring tasks and defer dates with the built binary: real stores, a
/// real peer folder, real processes.
@Suite struct RecurrenceEndToEndTests {
    let scratch = Scratch()

    func nextup(_ store: String, peer: Bool = true) -> NextupProcess {
        var extra = ["NEXTUP_HOME": scratch.path(store).path]
        if peer { extra["NEXTUP_PEER"] = scratch.path("peer").path }
        return NextupProcess(home: scratch.url, extra: extra)
    }

    func open(_ process: NextupProcess, _ args: String...) throws -> [[String: Any]] {
        let result = try process.run(["list", "--json"] + args)
        #expect(result.status == 0, "\(result)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    }

    @Test func twoMachinesCompletingTheSameOccurrenceOfflineEndWithOneSuccessor() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let a = nextup("a"), b = nextup("b")
        let id = try a.run("add", "Weekly review", "--recur", "every monday", "--due", "2026-11-30").out
        #expect(try b.run("sync").status == 0)
        // Both complete occurrence 1 with no peer folder: neither sees the other.
        let doneA = try nextup("a", peer: false).run("done", String(id.prefix(8)))
        let doneB = try nextup("b", peer: false).run("done", String(id.prefix(8)))
        #expect(doneA.status == 0 && doneB.status == 0, "\(doneA)\(doneB)")
        #expect(doneA.stdout.contains("next: ") && doneA.stdout.contains("due 2026-12-07"), "\(doneA)")
        for _ in 0..<2 { for m in [a, b] { #expect(try m.run("sync").status == 0) } }
        for m in [a, b] {
            let live = try open(m)
            #expect(live.count == 1, "\(live)")
            #expect(live.first?["occurrence"] as? String == "\(id)#2")
            #expect(live.first?["due"] as? String == "2026-12-07")
            #expect(live.first?["recur"] as? String == "FREQ=WEEKLY;BYDAY=MO")
        }
        #expect(try a.run("export").stdout.count > 0)
        #expect(try open(a, "--all").count == 2)
    }

    @Test func optionsListsExportImportAndBadInput() throws {
        let a = nextup("a", peer: false)
        // A series without a due date starts on the rule's first date.
        let rent = try a.run("add", "Pay rent", "--recur", "monthly on the 31st").out
        let show = try a.run("show", String(rent.prefix(8)))
        #expect(show.stdout.contains("recurs:") && show.stdout.contains("BYMONTHDAY=31;RSCALE=GREGORIAN;SKIP=BACKWARD"), "\(show)")
        let review = try a.run("add", "Review", "--recur", "FREQ=WEEKLY;BYDAY=MO", "--due", "2030-01-07", "--defer", "2 days before due").out
        #expect(try a.run("show", "--json", String(review.prefix(8))).stdout.contains("\"defer\" : \"2030-01-05\""))
        _ = try a.run("add", "Plain")
        // Deferred: in neither list, shown by --later and is:later.
        #expect(try open(a).map { $0["title"] as? String } .contains("Review") == false)
        #expect(try a.run("list").stdout.contains("Review") == false)
        #expect(try a.run("list", "--later").stdout.contains("Review"))
        #expect(try open(a, "--filter", "is:later").map { $0["title"] as? String } == ["Review"])
        #expect(Set(try open(a, "--filter", "is:recurring").map { $0["title"] as? String }) == ["Pay rent"])
        // Skip, then stop: the occurrence stays, without a rule.
        let skipped = try a.run("skip", String(rent.prefix(8)))
        #expect(skipped.status == 0 && skipped.stdout.contains("next: "), "\(skipped)")
        let next = try #require(try open(a, "--filter", "rent").first?["id"] as? String)
        let stop = try a.run("edit", String(next.prefix(8)), "--recur", "none")
        #expect(stop.status == 0 && stop.stdout.contains("stopped the series"), "\(stop)")
        #expect(try a.run("show", "--json", String(next.prefix(8))).stdout.contains("\"recur\" : null"))
        // Export and import round trip exactly.
        let exported = try a.run("export")
        let file = scratch.path("backup.json")
        try Data(exported.stdout.utf8).write(to: file)
        let c = nextup("c", peer: false)
        #expect(try c.run("import", file.path).status == 0)
        #expect(try c.run("export").stdout == exported.stdout)
        // Bad input: one plain line, a non-zero exit.
        for args in [["add", "X", "--recur", "every blursday"], ["add", "X", "--defer", "2 days before due"],
                     ["skip", String(next.prefix(8))], ["add", "X", "--recur", "FREQ=HOURLY"], ["list", "--filter", "is:soon"]] {
            let bad = try a.run(args)
            #expect(bad.status != 0, "\(args)")
            #expect(bad.stderr.split(separator: "\n").count == 1, "\(args): \(bad)")
            #expect(!bad.stderr.contains("Error Domain") && !bad.stderr.contains("SQL"), "\(args)")
        }
    }

    @Test func doctorNamesASeriesWithTwoLiveOccurrences() throws {
        let a = nextup("a", peer: false)
        _ = try a.run("add", "Fine")
        #expect(try a.run("doctor").status == 0)
        let series = "6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f"
        let file = scratch.path("twins.json")
        try Data("""
            [{"id": "\(series)", "title": "Twins", "recur": "every monday", "due": "2030-01-07", "occurrence": "\(series)#1"},
             {"title": "Twins", "recur": "every monday", "due": "2030-01-14", "occurrence": "\(series)#2"}]
            """.utf8).write(to: file)
        #expect(try a.run("import", file.path).status == 0)
        let doctor = try a.run("doctor")
        #expect(doctor.status != 0)
        #expect(doctor.stdout.contains("problem: the series “Twins” has 2 live occurrences (6f1c2b4e (#1), "), "\(doctor)")
    }

    /// `edit --this-only` changes one occurrence; the next one has the
    /// series' values; `--json` names them; one `undo` takes back a `done`
    /// and the occurrence it made; `count` agrees with `list`.
    @Test func thisOnlyEditsUndoOfDoneAndCount() throws {
        let a = nextup("a", peer: false)
        let id = try a.run("add", "Weekly review", "--recur", "every monday", "--due", "2030-01-07", "--tag", "home").out
        let short = String(id.prefix(8))
        let edit = try a.run("edit", short, "--this-only", "--title", "Review with Ann", "--untag", "home", "--due", "2030-01-08")
        #expect(edit.status == 0 && edit.stdout.contains("(this one only)") && !edit.stdout.contains("series:"), "\(edit)")
        let json = try a.run("show", "--json", short).stdout
        #expect(json.contains("\"series:title\" : \"Weekly review\"") && json.contains("\"series:due\" : \"2030-01-07\""), "\(json)")
        #expect(json.contains("\"series:tag:home\" : true"), "\(json)")
        let done = try a.run("done", short)
        #expect(done.status == 0 && done.stdout.contains("due 2030-01-14"), "\(done)")
        let next = try #require(try open(a).first)
        #expect(next["title"] as? String == "Weekly review" && next["tags"] as? [String] == ["home"], "\(next)")
        // One undo: the occurrence open again, its successor gone.
        let undo = try a.run("undo")
        #expect(undo.status == 0 && undo.stdout.contains("open again"), "\(undo)")
        #expect(try open(a).map { $0["id"] as? String } == [id])
        // A deferred task is in neither list, nor in the count.
        _ = try a.run("add", "Later", "--defer", "2031-01-01")
        #expect(try a.run("count").out == "1")
        #expect(try a.run("count", "--json").out == "{\"later\":1,\"open\":1}")
        // Bad input: --this-only on a task that does not repeat, or with a rule.
        let plain = try a.run("add", "Plain").out
        for args in [["edit", String(plain.prefix(8)), "--this-only", "--title", "X"], ["edit", short, "--this-only", "--recur", "daily"]] {
            let bad = try a.run(args)
            #expect(bad.status != 0 && bad.stderr.split(separator: "\n").count == 1, "\(args): \(bad)")
        }
    }
}
