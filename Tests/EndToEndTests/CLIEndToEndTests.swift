import Foundation
import Testing

/// The command line as a person's shell uses it: the built binary, real
/// processes, a real store folder.
@Suite struct CLIEndToEndTests {
    let scratch = Scratch()
    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    @Test func twentyConcurrentAddsAllLand() throws {
        let env = nextup.environment
        let processes = try (1...20).map { i -> Process in
            let p = Process()
            p.executableURL = NextupProcess.binary
            p.arguments = ["add", "concurrent \(i)"]
            p.environment = env
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            return p
        }
        processes.forEach { $0.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        #expect(try nextup.run("count").out == "20")
        let listed = try nextup.run("list", "--json").stdout
        let titles = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as! [[String: Any]]
        #expect(Set(titles.map { $0["title"] as! String }) == Set((1...20).map { "concurrent \($0)" }))
    }

    @Test func addPrintsTheIDAndShowFindsItByPrefix() throws {
        let id = try nextup.run("add", "Write", "the", "report", "--urgency", "urgent", "--importance", "3",
                                "--duration", "1h30m", "--category", "Deep Work", "--due", "2026-12-24", "--next").out
        #expect(UUID(uuidString: id) != nil)
        let shown = try nextup.run("show", String(id.prefix(6)), "--json")
        #expect(shown.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as! [String: Any]
        #expect(object["title"] as? String == "Write the report")
        #expect(object["duration"] as? Int == 90)
        #expect(object["importance"] as? Int == 3)
        #expect(object["urgency"] as? String == "urgent")
        #expect(object["due"] as? String == "2026-12-24")
        #expect(object["next_up"] as? Bool == true)
        #expect(object["completed_at"] is NSNull)
        let next = try nextup.run("next").stdout
        #expect(next.contains("Write the report") && next.contains("1h30m"))
    }

    @Test func editingToTheSameValueTwiceChangesNothingTheSecondTime() throws {
        let id = try nextup.run("add", "t").out
        let first = try nextup.run("edit", id, "--urgency", "urgent")
        #expect(first.stdout.hasPrefix("changed"))
        let before = try nextup.run("show", id, "--json").stdout
        let second = try nextup.run("edit", id, "--urgency", "urgent")
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("no change"))
        #expect(try nextup.run("show", id, "--json").stdout == before)
        let cleared = try nextup.run("edit", id, "--urgency", "none")
        #expect(cleared.stdout.contains("urgency"))
        #expect(try nextup.run("show", id).stdout.contains("urgency:     ?"))
    }

    @Test func doneUndoneDeleteRestoreAndTheirLists() throws {
        let a = try nextup.run("add", "alpha").out
        let b = try nextup.run("add", "beta").out
        #expect(try nextup.run("done", a, b).stdout.components(separatedBy: "\n").filter { $0.hasPrefix("done:") }.count == 2)
        #expect(try nextup.run("done", a).stdout.hasPrefix("already done"))
        #expect(try nextup.run("count").out == "0")
        #expect(try nextup.run("list", "--done").stdout.contains("alpha"))
        _ = try nextup.run("undone", a)
        _ = try nextup.run("delete", b)
        #expect(try nextup.run("list", "--deleted").stdout.contains("beta"))
        #expect(!(try nextup.run("list", "--all").stdout.contains("beta")))
        _ = try nextup.run("restore", b)
        #expect(try nextup.run("list", "--all").stdout.contains("beta"))
        // One bad id among good ones changes nothing.
        let mixed = try nextup.run("done", a, "ffffffff")
        #expect(mixed.status != 0)
        #expect(try nextup.run("count").out == "1")
    }

    @Test func listFiltersByTBDAndCategory() throws {
        _ = try nextup.run("add", "full", "--urgency", "urgent", "--importance", "1", "--duration", "5m", "--category", "Admin")
        _ = try nextup.run("add", "partial", "--category", "admin")
        let tbd = try nextup.run("list", "--tbd").stdout
        #expect(tbd.contains("partial") && !tbd.contains("full"))
        let admin = try nextup.run("list", "--category", "ADMIN").stdout
        #expect(admin.contains("partial") && admin.contains("full"))
        #expect(try nextup.run("list", "--done", "--tbd").status != 0)
    }

    @Test func exportImportExportRoundTripsAndReimportChangesNothing() throws {
        _ = try nextup.run("add", "one 日本語", "--importance", "2", "--next")
        let two = try nextup.run("add", "two", "--notes", "multi\nline", "--due", "2027-01-31").out
        _ = try nextup.run("done", two)
        let gone = try nextup.run("add", "gone").out
        _ = try nextup.run("delete", gone)
        let file = scratch.path("tasks.json")
        #expect(try nextup.run("export", file.path).status == 0)

        let other = NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("other").path])
        let imported = try other.run("import", file.path)
        #expect(imported.out == "imported 3 tasks: 3 added, 0 updated, 0 kept (newer here), 0 unchanged")
        let a = try nextup.run("export").stdout
        let b = try other.run("export").stdout
        // Lossless: every value and every field's version comes back — but
        // the Next Up order key, which the JSON object carries only as
        // `next_up: true`, is made anew at the bottom of the list (and with it
        // that task's `modified`).
        func comparable(_ text: String) throws -> String {
            var objects = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
            for i in objects.indices where objects[i]["next_up"] as? Bool == true {
                var versions = objects[i]["versions"] as! [String: Any]
                versions["next_up"] = nil
                objects[i]["versions"] = versions
                objects[i]["modified"] = nil
            }
            return objects.map(canonicalText).joined(separator: "\n")
        }
        #expect(try comparable(a) == comparable(b))
        #expect(a.contains("\"versions\" : {"))
        #expect(try other.run("import", file.path).out == "imported 3 tasks: 0 added, 0 updated, 0 kept (newer here), 3 unchanged")
        #expect(try other.run("export").stdout == b)
        // From standard input, too.
        #expect(try other.run(["import", "-"], stdin: a).out.hasSuffix("3 unchanged"))
    }

    @Test func humanOutputNeverCarriesControlCharacters() throws {
        _ = try nextup.run(["add", "evil \u{1B}[2J\u{7} title"])
        let list = try nextup.run("list").stdout
        #expect(list.contains("evil ␛[2J␇ title"))
        #expect(!list.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        // JSON keeps the real text, escaped.
        #expect(try nextup.run("list", "--json").stdout.contains("\\u001b[2J"))
    }

    @Test func tablesFitTheTerminalWidthByDisplayCells() throws {
        _ = try nextup.run("add", String(repeating: "日本語", count: 30))
        var narrow = nextup
        narrow.environment["COLUMNS"] = "80"
        let lines = try narrow.run("list").stdout.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let cells = String(line).unicodeScalars.reduce(0) { $0 + (($1.value >= 0x3000 && $1.value < 0xA000) ? 2 : 1) }
            #expect(cells <= 80)
        }
    }

    @Test func doctorReportsTheStore() throws {
        _ = try nextup.run("add", "x")
        let doctor = try nextup.run("doctor")
        #expect(doctor.status == 0)
        #expect(doctor.stdout.contains("schema:") && doctor.stdout.contains("replica:"))
        #expect(doctor.stdout.contains("1 open"))
        #expect(doctor.stdout.contains("no problems found"))
        var withPeer = nextup
        withPeer.environment["NEXTUP_PEER"] = scratch.path("no-such-share").path
        let missing = try withPeer.run("doctor")
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("does not exist"))
    }
}
