import Foundation
import NextUpTestSupport
import Testing

/// The phone bridge with real parts (issue 12): Radicale on 127.0.0.1 with
/// throw-away storage and no authentication, vdirsyncer between each
/// replica's vdir and one Radicale calendar (its own config and status
/// folder, the shape the README gives), and a second CalDAV client — the
/// `caldav` Python library (`Support/phone.py`) — playing the phone.
@Suite(.serialized) struct PhoneBridgeEndToEndTests {
    let scratch = Scratch()

    /// A Radicale server for one test, stopped (and its storage removed with
    /// the scratch folder) when the test ends.
    final class Radicale {
        let process = Process()
        let port: Int
        var calendarURL: String { "http://127.0.0.1:\(port)/phone/tasks/" }

        init(storage: URL) throws {
            port = try Self.freePort()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/radicale")
            process.arguments = ["--storage-filesystem-folder=\(storage.path)", "--auth-type", "none",
                                 "--server-hosts", "127.0.0.1:\(port)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let up = eventually(within: 30) { Self.accepts(port: self.port) }
            guard up else { throw Failure("Radicale did not start on port \(port)") }
        }

        /// SIGKILL: the storage is thrown away, and a child of the test
        /// runner may have inherited a blocked SIGTERM.
        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        static func freePort() throws -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound else { throw Failure("no free port") }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        static func accepts(port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs a program to its end; stdout, stderr and status.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment base: [String: String]? = nil) throws -> NextupProcess.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        var environment = base ?? ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        environment["LANG"] = "C.UTF-8"
        p.environment = environment
        return try NextupProcess.capture(p)
    }

    /// One machine: a store, a vdir, a vdirsyncer config and status folder,
    /// and (for two machines) a shared peer folder.
    struct Machine {
        let nextup: NextupProcess
        let vdir: URL
        let vdirsyncerConfig: URL

        init(_ name: String, scratch: Scratch, calendarURL: String, peer: URL?, timeZone: String? = nil) throws {
            vdir = scratch.path("\(name)-vdir")
            try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
            var extra = ["NEXTUP_HOME": scratch.path("\(name)-store").path, "NEXTUP_VDIR": vdir.path]
            if let peer { extra["NEXTUP_PEER"] = peer.path }
            if let timeZone { extra["TZ"] = timeZone }
            nextup = NextupProcess(home: scratch.url, extra: extra)
            // The README's config, with this machine's paths.
            vdirsyncerConfig = scratch.path("\(name)-vdirsyncer.conf")
            let config = """
                [general]
                status_path = "\(scratch.path("\(name)-vdirsyncer-status").path)/"

                [pair nextup_phone]
                a = "nextup_vdir"
                b = "nextup_caldav"
                collections = null
                conflict_resolution = ["command", "\(NextupProcess.binary.path)", "vdir-merge"]

                [storage nextup_vdir]
                type = "filesystem"
                path = "\(vdir.path)/"
                fileext = ".ics"

                [storage nextup_caldav]
                type = "caldav"
                url = "\(calendarURL)"
                username = "phone"
                password = "phone"
                item_types = ["VTODO"]

                """
            try Data(config.utf8).write(to: vdirsyncerConfig)
            let discover = try PhoneBridgeEndToEndTests.run("/usr/bin/vdirsyncer", ["-c", vdirsyncerConfig.path, "discover"])
            guard discover.status == 0 else { throw Failure("vdirsyncer discover: \(discover)") }
        }

        /// One `vdirsyncer sync`, in this machine's environment (its
        /// conflict command finds this machine's store and vdir).
        @discardableResult
        func vdirsyncer() throws -> String {
            let result = try PhoneBridgeEndToEndTests.run("/usr/bin/vdirsyncer", ["-c", vdirsyncerConfig.path, "sync"],
                                                          environment: nextup.environment)
            guard result.status == 0, !result.stderr.contains("error:") else { throw Failure("vdirsyncer sync: \(result)") }
            return result.stderr
        }

        @discardableResult
        func sync() throws -> String {
            let result = try nextup.run("sync")
            guard result.status == 0 else { throw Failure("nextup sync: \(result)") }
            return result.stdout
        }

        func tasks() throws -> [[String: Any]] {
            let result = try nextup.run("list", "--all", "--json")
            guard result.status == 0 else { throw Failure("nextup list: \(result)") }
            let open = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            let deleted = try nextup.run("list", "--deleted", "--json")
            return open + (try JSONSerialization.jsonObject(with: Data(deleted.stdout.utf8)) as? [[String: Any]] ?? [])
        }

        func task(_ id: String) throws -> [String: Any] {
            let result = try nextup.run("show", id, "--json")
            guard result.status == 0 else { throw Failure("nextup show: \(result)") }
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        }
    }

    static var phoneScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/phone.py").path
    }

    /// The phone: `phone.py` against the calendar.
    static func phone(_ url: String, _ args: String...) throws -> String {
        let result = try run("/usr/bin/python3", [phoneScript, url] + args)
        guard result.status == 0 else { throw Failure("phone \(args): \(result)") }
        return result.stdout
    }

    static func phoneTasks(_ url: String) throws -> [String: [String: Any]] {
        let list = try JSONSerialization.jsonObject(with: Data(try phone(url, "list").utf8)) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["uid"] as! String, $0) })
    }

    static func makeCalendar(_ radicale: Radicale) throws {
        let script = """
            import caldav
            c = caldav.DAVClient(url="http://127.0.0.1:\(radicale.port)/", username="phone", password="phone")
            c.principal().make_calendar(name="Tasks", cal_id="tasks", supported_calendar_component_set=["VTODO"])
            """
        let result = try run("/usr/bin/python3", ["-c", script])
        guard result.status == 0 else { throw Failure("make calendar: \(result)") }
    }

    @Test func thePhoneSeesTasksAndItsEditsKeepWhatItDoesNotKnow() throws {
        let radicale = try Radicale(storage: scratch.path("radicale"))
        try Self.makeCalendar(radicale)
        let url = radicale.calendarURL
        let a = try Machine("a", scratch: scratch, calendarURL: url, peer: nil)

        // nextup adds and triages tasks; the phone sees them.
        let report = try a.nextup.run("add", "Write the report", "--urgency", "urgent", "--importance", "3", "--duration", "90",
                                      "--category", "Deep Work", "--due", "2026-12-24", "--next").out
        let rent = try a.nextup.run("add", "Pay rent", "--importance", "2", "--due", "2026-12-01").out
        let plumber = try a.nextup.run("add", "Call the plumber", "--importance", "1").out
        #expect(try a.nextup.run("done", plumber).status == 0)
        #expect(try a.sync().contains("3 files written"))
        try a.vdirsyncer()
        var phone = try Self.phoneTasks(url)
        #expect(phone.count == 3)
        #expect(phone[report]?["summary"] as? String == "Write the report")
        #expect(phone[report]?["due"] as? String == "20261224")
        #expect(phone[report]?["priority"] as? String == "1")
        #expect(phone[report]?["status"] as? String == "NEEDS-ACTION")
        #expect(phone[rent]?["priority"] as? String == "5")
        #expect(phone[plumber]?["status"] as? String == "COMPLETED")

        // The phone creates a task, completes another and renames a third,
        // dropping every X- property.
        _ = try Self.phone(url, "create", "phone-task-1", "Buy milk")
        _ = try Self.phone(url, "complete", rent)
        _ = try Self.phone(url, "rename", report, "Write the final report")
        #expect(try Self.phoneTasks(url)[report]?["x"] as? [String] == [])
        try a.vdirsyncer()
        let cycle = try a.sync()
        #expect(cycle.contains("vdir: 1 created, 2 updated, 0 deleted"), "\(cycle)")

        let tasks = try a.tasks()
        let milk = tasks.filter { $0["title"] as? String == "Buy milk" }
        #expect(milk.count == 1)
        #expect(milk.first?["external_id"] as? String == "phone-task-1")
        #expect(milk.first?["importance"] as? Int == 3)
        #expect(try a.task(rent)["done"] as? Bool == true)
        let renamed = try a.task(report)
        #expect(renamed["title"] as? String == "Write the final report")
        #expect(renamed["urgency"] as? String == "urgent")
        #expect(renamed["duration"] as? Int == 90)
        #expect(renamed["category"] as? String == "Deep Work")
        #expect(renamed["next_up"] as? Bool == true)

        // The X- properties the task needs go back to the phone (its
        // category is CATEGORIES' first); then everything is quiet.
        try a.vdirsyncer()
        phone = try Self.phoneTasks(url)
        #expect(phone[report]?["x"] as? [String] == ["X-NEXTUP-DURATION", "X-NEXTUP-NEXT-UP", "X-NEXTUP-URGENCY", "X-NEXTUP-VERSIONS"])
        #expect(phone[report]?["summary"] as? String == "Write the final report")
        #expect(phone.count == 4)
        try a.vdirsyncer()
        #expect(try a.sync().contains("vdir: 0 created, 0 updated, 0 deleted, 0 files written"))

        // Deleted on the phone: soft-deleted in nextup; restored, back on the phone.
        _ = try Self.phone(url, "delete", rent)
        try a.vdirsyncer()
        #expect(try a.sync().contains("0 created, 0 updated, 1 deleted"))
        #expect(try a.task(rent)["deleted"] as? Bool == true)
        #expect(try a.nextup.run("restore", rent).status == 0)
        #expect(try a.sync().contains("1 file written"))
        try a.vdirsyncer()
        phone = try Self.phoneTasks(url)
        #expect(phone[rent]?["summary"] as? String == "Pay rent")
        #expect(phone[rent]?["status"] as? String == "COMPLETED")
    }

    @Test func twoReplicasBridgingOneCalendarThroughAPeerFolderMakeNoDuplicates() throws {
        let radicale = try Radicale(storage: scratch.path("radicale"))
        try Self.makeCalendar(radicale)
        let url = radicale.calendarURL
        let peer = scratch.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let a = try Machine("a", scratch: scratch, calendarURL: url, peer: peer)
        let b = try Machine("b", scratch: scratch, calendarURL: url, peer: peer)

        let first = try a.nextup.run("add", "From machine A", "--urgency", "urgent", "--duration", "30").out
        _ = try b.nextup.run("add", "From machine B", "--category", "Admin").out
        _ = try Self.phone(url, "create", "phone-task-2", "From the phone")
        // Each round: each machine fetches from the calendar, syncs (peer
        // folder, then bridge), and sends its files back.
        for round in 0..<4 {
            for machine in [a, b] {
                try machine.vdirsyncer()
                try machine.sync()
                try machine.vdirsyncer()
            }
            if round == 1 {
                _ = try Self.phone(url, "rename", "phone-task-2", "From the phone, renamed")
                _ = try Self.phone(url, "complete", first)
            }
        }
        for machine in [a, b] {
            let tasks = try machine.tasks()
            let titles = tasks.map { $0["title"] as? String ?? "" }.sorted()
            #expect(titles == ["From machine A", "From machine B", "From the phone, renamed"], "\(titles)")
            #expect(Set(tasks.map { $0["id"] as? String ?? "" }).count == 3)
        }
        let done = try a.task(first)
        #expect(done["done"] as? Bool == true && done["urgency"] as? String == "urgent" && done["duration"] as? Int == 30)
        #expect(try b.task(first)["done"] as? Bool == true)
        let phone = try Self.phoneTasks(url)
        #expect(phone.count == 3)
        #expect(Set(phone.values.map { $0["summary"] as? String ?? "" }) == ["From machine A", "From machine B", "From the phone\\, renamed"])
    }

    static var corpus: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("tests/vtodo-corpus")
    }

    /// Issue 32 (2, 3, 7, 8, 9, 11, 12): files shaped like real apps'
    /// (tasks.org with a due time in Berlin, DAVx5 for OpenTasks, Thunderbird with a completed occurrence,
    /// Nextcloud Tasks' floating times, Apple Reminders, Synology, eM Client
    /// without a SUMMARY, todoman's UTC due time) arrive as tasks,
    /// and cycles with no nextup edit leave the server's copies byte for
    /// byte; a nextup edit changes only its own lines.
    @Test func realAppsFilesArriveAndAreNeverRewritten() throws {
        let radicale = try Radicale(storage: scratch.path("radicale"))
        try Self.makeCalendar(radicale)
        let url = radicale.calendarURL
        let a = try Machine("a", scratch: scratch, calendarURL: url, peer: nil, timeZone: "America/New_York")
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".ics") }.sorted()
        #expect(names.count == 9)
        var before: [String: String] = [:]
        for name in names {
            _ = try Self.phone(url, "put", name, Self.corpus.appendingPathComponent(name).path)
            before[name] = try Self.phone(url, "get", name)
        }
        for round in 0..<2 {
            try a.vdirsyncer()
            let report = try a.sync()
            #expect(!report.contains("skipped"), "\(report)")
            // A category too long for nextup stays in the file and is said once, when the file arrives.
            #expect(report.contains("emc-2b7d0e5c-93f1-47a8-a1c2-000000000001.ics: the category \"A very long") == (round == 0), "\(report)")
            try a.vdirsyncer()
        }
        for name in names { #expect(try Self.phone(url, "get", name) == before[name], "\(name) was rewritten") }

        let tasks = try a.tasks()
        #expect(tasks.count == 9)
        func task(_ title: String) -> [String: Any]? { tasks.first { ($0["title"] as? String)?.hasPrefix(title) == true } }
        let passport = try #require(task("Renew the passport"))
        #expect(passport["category"] as? String == "Admin")
        #expect(Set(passport["tags"] as? [String] ?? []) == ["Home Office", "Deep Work"])
        #expect(passport["importance"] as? Int == 3 && passport["done"] as? Bool == false)
        // 04:00:01 in Berlin on 3 December is 22:00:01 on the 2nd in New York.
        #expect(passport["due"] as? String == "2026-12-02")
        let books = try #require(task("Return the library books"))
        #expect(books["due"] as? String == "2026-11-28" && books["category"] as? String == "Errands")
        #expect((books["notes"] as? String)?.contains("Ask about the renewal fee") == true)
        #expect(task("Water the plants")?["done"] as? Bool == false)
        #expect(task("Back up the NAS")?["done"] as? Bool == true)
        #expect(task("Wrap the presents")?["due"] as? String == "2026-12-24")
        #expect(task("(untitled)")?["importance"] as? Int == 2)
        #expect(task("Geschenk für Oma besorgen")?["due"] as? String == "2026-12-22")
        #expect(task("Sort the receipts")?["notes"] as? String == "Shoebox on the shelf")
        #expect(try a.nextup.run("doctor").stdout.contains("9 .ics files"))

        // A title edited in nextup: the tasks.org file changes in its own lines only.
        let id = try #require(passport["id"] as? String)
        #expect(try a.nextup.run("edit", id, "--title", "Renew both passports").status == 0)
        try a.sync()
        try a.vdirsyncer()
        let after = try Self.phone(url, "get", "tasksorg-in-process.ics")
        // Radicale serves each item as it re-serialised it (LF, properties sorted).
        func lines(_ text: String) -> Set<String> { Set(text.split(whereSeparator: \.isNewline).map(String.init)) }
        let changed = lines(after).symmetricDifference(lines(before["tasksorg-in-process.ics"]!)).filter { !$0.hasPrefix(" ") }
        #expect(Set(changed.map { $0.components(separatedBy: ":")[0] }) == ["SUMMARY", "LAST-MODIFIED", "DTSTAMP", "SEQUENCE", "X-NEXTUP-VERSIONS"],
                "\(changed)")
        #expect(lines(after).isSuperset(of: ["SUMMARY:Renew both passports", "STATUS:IN-PROCESS", "PRIORITY:1", "CREATED:20180312T091011Z"]))
    }

    /// Issue 32 (1): a property changed in nextup and another on the phone
    /// between two vdirsyncer runs — vdirsyncer finds the item changed on
    /// both sides and calls `nextup vdir-merge` — both edits survive, on
    /// the phone and in nextup.
    @Test func editsOnBothSidesBetweenTwoVdirsyncerRunsAreMerged() throws {
        let radicale = try Radicale(storage: scratch.path("radicale"))
        try Self.makeCalendar(radicale)
        let url = radicale.calendarURL
        let a = try Machine("a", scratch: scratch, calendarURL: url, peer: nil)
        let report = try a.nextup.run("add", "Write the report", "--importance", "2").out
        let rent = try a.nextup.run("add", "Pay rent", "--due", "2026-12-01").out
        let plumber = try a.nextup.run("add", "Call the plumber").out
        try a.sync()
        try a.vdirsyncer()

        // nextup: urgency, a title, a delete; the phone meanwhile: a completion, a due date, a title.
        #expect(try a.nextup.run("edit", report, "--urgency", "urgent").status == 0)
        #expect(try a.nextup.run("edit", rent, "--title", "Pay the rent").status == 0)
        #expect(try a.nextup.run("delete", plumber).status == 0)
        try a.sync()
        _ = try Self.phone(url, "complete", report)
        _ = try Self.phone(url, "set", rent, "DUE;VALUE=DATE", "20261203")
        _ = try Self.phone(url, "rename", plumber, "Call the plumber about the tap")
        try a.vdirsyncer()
        try a.sync()
        try a.vdirsyncer()

        let phone = try Self.phoneTasks(url)
        #expect(phone[report]?["status"] as? String == "COMPLETED")
        #expect(phone[rent]?["summary"] as? String == "Pay the rent" && phone[rent]?["due"] as? String == "20261203")
        #expect(phone[plumber]?["summary"] as? String == "Call the plumber about the tap" && phone[plumber]?["status"] as? String == "CANCELLED")
        let first = try a.task(report)
        #expect(first["done"] as? Bool == true && first["urgency"] as? String == "urgent" && first["importance"] as? Int == 2)
        let second = try a.task(rent)
        #expect(second["title"] as? String == "Pay the rent" && second["due"] as? String == "2026-12-03")
        let third = try a.task(plumber)
        #expect(third["title"] as? String == "Call the plumber about the tap" && third["deleted"] as? Bool == true)
        // Quiet afterwards: nothing more to write on either side.
        #expect(try a.sync().contains("0 files written"))
    }

    /// Issue 32 (1), with `sync --watch` running (it rewrites a file within
    /// a second of a nextup edit): rounds of nextup urgency edits, phone
    /// title edits and vdirsyncer runs in random order lose nothing — every
    /// task ends with the phone's last title and nextup's last urgency, on
    /// both sides. `NEXTUP_PHONE_ROUNDS` runs more rounds.
    @Test func aWatchingSyncLosesNoPhoneEditAmongMixedEdits() throws {
        let started = Date()
        let radicale = try Radicale(storage: scratch.path("radicale"))
        try Self.makeCalendar(radicale)
        let url = radicale.calendarURL
        let a = try Machine("a", scratch: scratch, calendarURL: url, peer: nil)
        let ids = try (0..<3).map { try a.nextup.run("add", "Task \($0)").out }
        try a.sync()
        try a.vdirsyncer()
        let watcher = Process()
        watcher.executableURL = NextupProcess.binary
        watcher.arguments = ["sync", "--watch"]
        watcher.environment = a.nextup.environment
        watcher.standardOutput = FileHandle.nullDevice
        FileManager.default.createFile(atPath: scratch.path("watcher.txt").path, contents: nil)
        watcher.standardError = try FileHandle(forWritingTo: scratch.path("watcher.txt"))
        try watcher.run()
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL); watcher.waitUntilExit() } }

        var rng = SystemRandomNumberGenerator()
        var titles = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($0.element, "Task \($0.offset)") })
        var urgencies: [String: String] = [:]
        var history: [String] = []
        let rounds = Int(ProcessInfo.processInfo.environment["NEXTUP_PHONE_ROUNDS"] ?? "") ?? 5
        for round in 0..<rounds {
            for step in [0, 1, 2].shuffled(using: &rng) {
                let id = ids.randomElement(using: &rng)!
                switch step {
                case 0:
                    let urgency = ["urgent", "not-urgent"].randomElement(using: &rng)!
                    #expect(try a.nextup.run("edit", id, "--urgency", urgency).status == 0)
                    urgencies[id] = urgency
                    history.append("nextup \(id.prefix(8)) urgency=\(urgency)")
                case 1:
                    let title = "Task \(ids.firstIndex(of: id)!) round \(round)"
                    _ = try Self.phone(url, "rename", id, title)
                    titles[id] = title
                    history.append("phone \(id.prefix(8)) title=\(title)")
                default:
                    do {
                        try a.vdirsyncer()
                        history.append("vdirsyncer")
                    } catch let failure as Failure where failure.description.contains(/\('[0-9.]+;[0-9]+', '[0-9.]+;[0-9]+'\)/) {
                        // vdirsyncer's own guard: a vdir file changed (the watching bridge wrote it) between
                        // its listing and its write, so it wrote nothing there (its error names the two
                        // etags); its next run sees both sides changed and calls vdir-merge.
                        history.append("vdirsyncer: a file changed under it, nothing written")
                    }
                }
            }
        }
        // Settle: vdirsyncer until nextup holds every phone title and the phone every urgency.
        // Under load a round takes seconds, so the wait is for progress: it gives up when
        // neither side changed for `stuck` seconds (an edit lost stays lost), or at `limit`.
        let stuck: TimeInterval = 30, limit: TimeInterval = 240
        var wrong: [String] = []
        var last = "", lastChange = Date()
        let settleStart = Date()
        while true {
            _ = try? a.vdirsyncer()
            let phone = (try? Self.phoneTasks(url)) ?? [:]
            var state: [String] = []
            wrong = []
            for id in ids {
                let task = (try? a.task(id)) ?? [:]
                let seen = "\(id.prefix(8)): nextup title=\(task["title"] as? String ?? "-") urgency=\(task["urgency"] as? String ?? "-"), "
                    + "phone title=\(phone[id]?["summary"] as? String ?? "-") x=\(phone[id]?["x"] as? [String] ?? [])"
                state.append(seen)
                let right = task["title"] as? String == titles[id] && phone[id]?["summary"] as? String == titles[id]
                    && task["urgency"] as? String == urgencies[id]
                    && (urgencies[id] == nil || phone[id]?["x"] as? [String] != nil)
                if !right { wrong.append(seen + " (wanted title=\(titles[id]!) urgency=\(urgencies[id] ?? "-"))") }
            }
            if wrong.isEmpty || Date().timeIntervalSince(settleStart) > limit { break }
            let now = state.joined(separator: "\n")
            if now != last { last = now; lastChange = Date() } else if Date().timeIntervalSince(lastChange) > stuck { break }
            usleep(200_000)
        }
        #expect(wrong.isEmpty, "not settled after \(Int(Date().timeIntervalSince(settleStart))) s:\n\(wrong.joined(separator: "\n"))\n\(history.joined(separator: "\n"))")
        kill(watcher.processIdentifier, SIGTERM)
        #expect(eventually(within: 15) { !watcher.isRunning })
        print("phone mixed edits: \(rounds) rounds in \(String(format: "%.1f", Date().timeIntervalSince(started))) s, settled in \(String(format: "%.1f", Date().timeIntervalSince(settleStart))) s")
    }

    /// Issue 35: a series is one VTODO under its UID with its RRULE, and the
    /// three ways phones complete an occurrence — the due date moved in place
    /// (tasks.org), a completed RECURRENCE-ID override (Thunderbird), the
    /// item completed and a new one made (Apple Reminders) — each complete
    /// the live occurrence: one live VTODO on the phone, no duplicate, and
    /// nextup shows the next occurrence.
    @Test func eachPhonesWayOfCompletingAnOccurrenceMovesTheSeriesOn() throws {
        let radicale = try Radicale(storage: scratch.path("radicale"))
        try Self.makeCalendar(radicale)
        let url = radicale.calendarURL
        let a = try Machine("a", scratch: scratch, calendarURL: url, peer: nil)
        let series = try a.nextup.run("add", "Weekly review", "--due", "2027-01-04", "--recur", "every monday").out
        try a.sync()
        try a.vdirsyncer()
        var phone = try Self.phoneTasks(url)
        #expect(phone.count == 1)
        #expect(phone[series]?["rrule"] as? String == "FREQ=WEEKLY;BYDAY=MO" && phone[series]?["due"] as? String == "20270104")

        /// One round trip, then: nextup's one open occurrence is `number`, due
        /// `due`, and the phone holds one live VTODO saying so.
        func expectLive(_ number: Int, _ due: String) throws {
            try a.vdirsyncer()
            try a.sync()
            try a.vdirsyncer()
            let open = try a.tasks().filter { $0["done"] as? Bool == false && $0["deleted"] as? Bool != true }
            #expect(open.count == 1, "\(open)")
            #expect(open.first?["occurrence"] as? String == "\(series)#\(number)")
            #expect(open.first?["due"] as? String == due)
            phone = try Self.phoneTasks(url)
            #expect(phone.count == 1, "\(phone)")
            #expect(phone[series]?["status"] as? String == "NEEDS-ACTION")
            #expect(phone[series]?["due"] as? String == due.replacingOccurrences(of: "-", with: ""))
            #expect(phone[series]?["vtodos"] as? Int == 1)
            #expect(phone[series]?["rrule"] as? String == "FREQ=WEEKLY;BYDAY=MO")
        }

        _ = try Self.phone(url, "advance", series, "20270111", "20270111")
        try expectLive(2, "2027-01-11")
        _ = try Self.phone(url, "override", series, "20270111")
        try expectLive(3, "2027-01-18")
        _ = try Self.phone(url, "renew", series, "A1B2C3D4-0000-4000-8000-00000000000F", "20270125")
        try expectLive(4, "2027-01-25")
        let done = try a.tasks().filter { $0["done"] as? Bool == true }.compactMap { $0["occurrence"] as? String }.sorted()
        #expect(done == (1...3).map { "\(series)#\($0)" })
    }
}
