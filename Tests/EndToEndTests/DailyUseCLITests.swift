import Foundation
import Testing

/// Issue 33, items 8-12: the habits people bring to the command line, notes
/// from a file, the wording of replies, config mistakes and a mistyped store.
@Suite struct DailyUseCLITests {
    let scratch = Scratch()
    var storeFolder: URL { scratch.path("store") }
    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": storeFolder.path]) }

    func object(_ result: NextupProcess.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    }

    func show(_ id: String) throws -> [String: Any] { try object(try nextup.run("show", id, "--json")) }

    /// One plain line on stderr saying `says`, a non-zero exit, and the
    /// store (made first with one task) byte for byte the same.
    func expectRefused(_ args: [String], stdin: String? = nil, says: String, with runner: NextupProcess? = nil) throws {
        if !FileManager.default.fileExists(atPath: storeFolder.path) { #expect(try nextup.run("add", "seed").status == 0) }
        let db = storeFolder.appendingPathComponent("nextup.sqlite")
        let before = try Data(contentsOf: db)
        let result = try (runner ?? nextup).run(args, stdin: stdin)
        #expect(result.status != 0, "\(args) should fail: \(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(args): one line, got \(result.stderr)")
        #expect(result.stderr.contains(says), "\(args): \(result.stderr)")
        #expect(!result.stderr.contains("DecodingError") && !result.stderr.contains("Fatal error"), "\(result.stderr)")
        #expect(try Data(contentsOf: db) == before, "\(args) must not touch the store")
    }

    // MARK: 8. Taskwarrior habits

    @Test func addUnderstandsTaskwarriorsWords() throws {
        let task = try object(try nextup.run("add", "Buy", "milk", "project:Home", "due:fri", "+errand", "priority:H", "--json"))
        #expect(task["title"] as? String == "Buy milk")
        #expect(task["category"] as? String == "Home")
        #expect(task["importance"] as? Int == 3)
        #expect(task["tags"] as? [String] == ["errand"])
        #expect(task["due"] is String, "\(task)")
        let low = try object(try nextup.run("add", "later", "pri:l", "pro:Garden", "--json"))
        #expect(low["importance"] as? Int == 1 && low["category"] as? String == "Garden" && low["title"] as? String == "later")
    }

    /// `recur:` takes Taskwarrior's periods as its import does; `wait:` and
    /// `scheduled:` are the defer date, as the import maps them.
    @Test func taskwarriorsRecurWaitAndScheduledWords() throws {
        let task = try object(try nextup.run("add", "Water plants", "due:2026-12-01", "recur:2wks", "wait:2026-11-29", "--json"))
        #expect((task["recur"] as? String)?.hasPrefix("FREQ=WEEKLY;INTERVAL=2") == true, "\(task)")
        #expect(task["defer"] as? String == "2026-11-29" && task["title"] as? String == "Water plants", "\(task)")
        let id = try #require(task["id"] as? String)
        #expect(try nextup.run("edit", id, "scheduled:2026-11-30", "recur:weekdays").status == 0)
        let edited = try show(id)
        #expect(edited["defer"] as? String == "2026-11-30")
        #expect((edited["recur"] as? String)?.contains("BYDAY=MO,TU,WE,TH,FR") == true, "\(edited)")
        #expect(try nextup.run("edit", id, "wait:", "recur:").status == 0)
        let cleared = try show(id)
        #expect(cleared["defer"] is NSNull && cleared["recur"] is NSNull, "\(cleared)")
    }

    @Test func wordsThatOnlyLookLikeTaskwarriorsStayInTheTitle() throws {
        let words = ["Read", "http://x", "at", "10:30", "re:meeting", "Project:", "plan", "+1", "due:", "C++"]
        let task = try object(try nextup.run(["add"] + words + ["--json"]))
        #expect(task["title"] as? String == words.joined(separator: " "))
        #expect(task["category"] is NSNull && task["due"] is NSNull && (task["tags"] as? [String])?.isEmpty == true, "\(task)")
        // After --, nothing is read: the word is text.
        let literal = try object(try nextup.run("add", "--json", "--", "Discuss", "priority:high", "+team"))
        #expect(literal["title"] as? String == "Discuss priority:high +team")
        // An option's value is the option's, whatever it looks like.
        let notes = try object(try nextup.run("add", "x", "--notes", "due:fri +tag", "--json"))
        #expect(notes["notes"] as? String == "due:fri +tag" && notes["due"] is NSNull)
    }

    @Test(arguments: [
        (["add", "Buy", "milk", "until:fri"], "no expiry (until) dates"),
        (["add", "Buy", "milk", "priority:X"], "priority is H, M or L"),
        (["add", "Buy", "milk", "due:someday"], "due date 'someday'"),
        (["add", "x", "recur:every-blue-moon"], "every-blue-moon"),
        (["add", "--weird title"], "put text that starts with '-' after --"),
    ] as [([String], String)])
    func aTaskwarriorWordNextupCannotTakeIsRefused(args: [String], says: String) throws {
        try expectRefused(args, says: says)
    }

    @Test func editTakesTaskwarriorsWordsToo() throws {
        let id = try nextup.run("add", "Buy milk", "+errand", "due:tomorrow", "project:Home").out
        let result = try nextup.run("edit", id, "-errand", "+shop", "due:", "project:Work", "pri:L")
        #expect(result.status == 0, "\(result)")
        let task = try show(id)
        #expect(task["tags"] as? [String] == ["shop"])
        #expect(task["due"] is NSNull)
        #expect(task["category"] as? String == "Work" && task["importance"] as? Int == 1)
        #expect(task["title"] as? String == "Buy milk")
    }

    @Test func aTaskwarriorExportWithoutFromTaskwarriorSaysSo() throws {
        let file = scratch.path("tw.json")
        try Data(#"[{"id":1,"description":"Buy milk","entry":"20261120T100000Z","status":"pending","uuid":"5f4b2a6e-3b5d-4a57-9b1e-6a1d2c3b4a5f"}]"#.utf8).write(to: file)
        try expectRefused(["import", file.path], says: "this looks like a Taskwarrior export; use --from taskwarrior")
    }

    // MARK: 9. Notes from a file or standard input

    @Test func notesComeFromAFileOrStandardInput() throws {
        // Longer than one argument may be (128 KiB on Linux).
        let long = (1...2000).map { "line \($0) of the notes, long enough to matter" }.joined(separator: "\n")
        let file = scratch.path("notes.txt")
        try Data((long + "\n").utf8).write(to: file)
        let id = try nextup.run("add", "with notes", "--notes-file", file.path).out
        #expect(try show(id)["notes"] as? String == long)
        #expect(try nextup.run(["edit", id, "--notes-file", "-"], stdin: "none\n").status == 0)
        // From a file, `none` is the text, not the word that clears.
        #expect(try show(id)["notes"] as? String == "none")
        let piped = try nextup.run(["add", "piped", "--notes-file", "-"], stdin: "from stdin\nsecond line\n").out
        #expect(try show(piped)["notes"] as? String == "from stdin\nsecond line")
    }

    @Test func aBadNotesFileWritesNothing() throws {
        let id = try nextup.run("add", "seed").out
        let big = scratch.path("big.txt")
        try Data(repeating: UInt8(ascii: "a"), count: 600 * 1024).write(to: big)
        try expectRefused(["add", "x", "--notes-file", scratch.path("missing.txt").path], says: "--notes-file: there is no file")
        try expectRefused(["add", "x", "--notes-file", scratch.url.path], says: "is a folder")
        try expectRefused(["add", "x", "--notes-file", big.path], says: "notes is too long")
        try expectRefused(["add", "x", "--notes", "a", "--notes-file", big.path], says: "choose one of --notes and --notes-file")
        try expectRefused(["edit", id, "--notes-file", big.path], says: "notes is too long")
    }

    // MARK: 10. Wording

    @Test func undoingADoneSaysItInASentence() throws {
        let id = try nextup.run("add", "Buy milk").out
        #expect(try nextup.run("done", id).status == 0)
        let undo = try nextup.run("undo")
        #expect(undo.out == "undid: \(id.prefix(8)) Buy milk is open again", "\(undo)")
    }

    @Test func showPutsASpaceAfterEveryLabel() throws {
        let result = try nextup.run(["import", "-"], stdin: #"[{"id": "f8540000-0000-4000-8000-000000000001", "title": "t", "source": "phone", "external_id": "f854abc"}]"#)
        #expect(result.status == 0, "\(result)")
        let lines = try nextup.run("show", "f854").stdout.split(separator: "\n")
        #expect(lines.contains("external id: f854abc"), "\(lines)")
        for line in lines where !line.hasPrefix(" ") && line.contains(":") && !line.hasSuffix(":") {
            let label = line.prefix { $0 != ":" }
            #expect(line.dropFirst(label.count + 1).first == " ", "no space after the label: \(line)")
        }
    }

    @Test func theImportSummaryCountsEachTaskOnce() throws {
        let a = try nextup.run("add", "a").out, b = try nextup.run("add", "b").out
        let file = scratch.path("old.json")
        #expect(try nextup.run("export", file.path).status == 0)
        #expect(try nextup.run("edit", a, "--title", "a here").status == 0)
        #expect(try nextup.run("edit", b, "--title", "b here").status == 0)
        // In the file, task a also gains notes nextup does not have: a is
        // updated (its title kept, newer here), b only kept.
        var objects = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [[String: Any]]
        let index = try #require(objects.firstIndex { $0["id"] as? String == a })
        objects[index]["notes"] = "from the file"
        var versions = objects[index]["versions"] as! [String: Any]
        versions["notes"] = nil
        objects[index]["versions"] = versions
        try JSONSerialization.data(withJSONObject: objects).write(to: file)
        let result = try nextup.run("import", file.path)
        #expect(result.out == "imported 2 tasks: 0 added, 1 updated, 1 kept (newer here), 0 unchanged", "\(result)")
    }

    // MARK: 11. Config mistakes

    func writeConfig(_ text: String) throws -> (NextupProcess, String) {
        let path = scratch.path("config.toml")
        try Data(text.utf8).write(to: path)
        return (NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": storeFolder.path, "NEXTUP_CONFIG": path.path]), path.path)
    }

    @Test(arguments: [
        ("# mine\n\npeer = 42\n", "line 3: peer should be a folder path in quotes"),
        ("categories = \"Admin\"\n", "line 1: categories should be a list of names in quotes"),
        ("[keys]\nquit = 5\n", "line 2: keys.quit should be key names in quotes"),
        ("[taskwarrior]\nurgency_from = [\"a\"]\n", "line 2: taskwarrior.urgency_from should be a tag or UDA name in quotes"),
    ])
    func aValueOfTheWrongKindIsNamedByKeyAndLine(config: String, says: String) throws {
        let (runner, path) = try writeConfig(config)
        try expectRefused(["list"], says: "config file \(path), \(says)", with: runner)
        // doctor goes on with the defaults and reports it among the rest.
        let doctor = try runner.run("doctor")
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("problem: config file \(path), \(says)"), "\(doctor)")
        #expect(doctor.stdout.contains("tasks:"), "doctor checked the store too: \(doctor)")
    }

    @Test func unknownSettingsAreReportedByDoctor() throws {
        let (runner, path) = try writeConfig("pier = \"/tmp/x\"\nunknown_setting = 1\n[keys]\nquit = \"q\"\n[taskwarior]\ncategory = \"project\"\n")
        #expect(try runner.run("add", "x").status == 0)
        let doctor = try runner.run("doctor")
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("problem: config file \(path), line 1: unknown setting 'pier' (did you mean peer?)"), "\(doctor)")
        #expect(doctor.stdout.contains("problem: config file \(path), line 2: unknown setting 'unknown_setting'\n"), "\(doctor)")
        #expect(doctor.stdout.contains("line 6: [taskwarior] is not a nextup table (did you mean taskwarrior?)"), "\(doctor)")
        #expect(!doctor.stdout.contains("no problems found"))
    }

    // MARK: 12. A mistyped store

    @Test(arguments: [["list"], ["count"], ["next"], ["export"], ["show", "abcd"], ["done", "abcd"], ["undo"], ["doctor"]])
    func aReadCommandNeverCreatesAStore(args: [String]) throws {
        let typo = scratch.path("stroe")
        let result = try nextup.run(["--store", typo.path] + args)
        #expect(result.status != 0, "\(result)")
        #expect((result.stderr + result.stdout).contains("no nextup store at \(typo.path)"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: typo.path), "\(args) made a store")
        let viaHome = try NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": typo.path]).run(args)
        #expect(viaHome.status != 0 && !FileManager.default.fileExists(atPath: typo.path), "\(viaHome)")
    }

    @Test func aWriteCommandStillCreatesTheStore() throws {
        #expect(try nextup.run("add", "first").status == 0)
        #expect(try nextup.run("count").out.hasPrefix("1"), "the new store holds the task")
    }
}
