import Foundation
import Testing

/// `nextup sync` and publishing after commands, with the built binary, real
/// processes, real store folders and a real peer folder.
@Suite struct SyncEndToEndTests {
    let scratch = Scratch()

    func nextup(_ store: String, peer: String? = "peer") -> NextupProcess {
        var extra = ["NEXTUP_HOME": scratch.path(store).path]
        if let peer { extra["NEXTUP_PEER"] = scratch.path(peer).path }
        return NextupProcess(home: scratch.url, extra: extra)
    }

    func makePeer() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
    }

    func exported(_ process: NextupProcess) throws -> [String: [String: String]] {
        let result = try process.run("export")
        #expect(result.status == 0, "\(result)")
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        var out: [String: [String: String]] = [:]
        for object in objects {
            out[object["id"] as! String] = object.mapValues(canonicalText)
        }
        return out
    }

    @Test func aChangeMadeOnOneMachineArrivesOnTheOtherWithEveryField() throws {
        try makePeer()
        let a = nextup("a"), b = nextup("b")
        let id = try a.run("add", "Write the report", "--urgency", "urgent", "--importance", "3", "--duration", "90",
                           "--category", "Deep Work", "--due", "2026-12-24", "--notes", "two\nlines").out
        let sync = try b.run("sync")
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.stdout.contains("merged 8 changes into 1 task from 1 peer"), "\(sync)")
        #expect(try exported(b) == exported(a))
        // An edit on B comes back to A; a second sync is quiet.
        #expect(try b.run("edit", String(id.prefix(8)), "--urgency", "none").status == 0)
        let back = try a.run("sync")
        #expect(back.stdout.contains("merged 1 change into 1 task from 1 peer"), "\(back)")
        let peerFiles = try FileManager.default.contentsOfDirectory(atPath: scratch.path("peer").path).sorted()
        let before = try peerFiles.map { try Data(contentsOf: scratch.path("peer/\($0)")) }
        let quiet = try a.run("sync")
        #expect(quiet.stdout.hasPrefix("uploaded 0 changes; merged 0 changes"), "\(quiet)")
        #expect(try peerFiles.map { try Data(contentsOf: scratch.path("peer/\($0)")) } == before)
        #expect(try exported(b) == exported(a))
    }

    @Test func aBadPeerFolderIsOneClearLineAndIsNeverCreated() throws {
        let missing = try nextup("a", peer: "not-mounted").run("sync")
        #expect(missing.status != 0)
        #expect(missing.stderr.split(separator: "\n").count == 1)
        #expect(missing.stderr.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("not-mounted").path))
        try Data("x".utf8).write(to: scratch.path("a-file"))
        let file = try nextup("a", peer: "a-file").run("sync")
        #expect(file.status != 0)
        #expect(file.stderr.contains("is not a folder"))
        let none = try nextup("a", peer: nil).run("sync")
        #expect(none.status != 0)
        #expect(none.stderr.contains("no peer folder or vdir is configured"))
        // A change with an unusable peer folder is kept, with a warning.
        let add = try nextup("a", peer: "not-mounted").run("add", "Kept anyway")
        #expect(add.status == 0)
        #expect(add.stderr.contains("warning: the change is saved but was not published"))
        #expect(try nextup("a", peer: nil).run("count").out == "1")
    }

    @Test func syncReportsSkippedFilesAndStillMergesTheGoodOnes() throws {
        try makePeer()
        let a = nextup("a"), b = nextup("b")
        _ = try a.run("add", "Good")
        try Data([0xFF, 0x00, 0x13, 0x37]).write(to: scratch.path("peer/nextup-0f0f0f0f-0000-4000-8000-000000000000.log"))
        try Data().write(to: scratch.path("peer/nextup-1f0f0f0f-0000-4000-8000-000000000000.log"))
        let result = try b.run("sync")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("skipped: nextup-0f0f0f0f-0000-4000-8000-000000000000.log"))
        #expect(result.stdout.contains("empty file"))
        #expect(try b.run("count").out == "1")
    }

    @Test func watchModeSyncsInTheBackgroundAndStopsCleanlyOnSIGTERM() throws {
        try makePeer()
        let a = nextup("a"), b = nextup("b")
        _ = try b.run("count")  // make B's store
        let watcher = Process()
        watcher.executableURL = NextupProcess.binary
        watcher.arguments = ["sync", "--watch"]
        watcher.environment = b.environment
        let output = Pipe()
        watcher.standardOutput = output
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL) } }
        let id = try a.run("add", "Arrives by itself").out
        let arrived = eventually(within: 30) { (try? b.run("show", id, "--json").status) == 0 }
        if !arrived {
            let running = watcher.isRunning
            kill(watcher.processIdentifier, SIGTERM)
            watcher.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path("peer").path)
            Issue.record("did not arrive; watcher running: \(running); printed: \(printed); peer: \(files)")
            return
        }
        kill(watcher.processIdentifier, SIGTERM)
        #expect(eventually(within: 15) { !watcher.isRunning })
        #expect(watcher.terminationStatus == 0)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.contains("watching"))
        #expect(printed.contains("stopped"))
        // One line per cycle that changed something, none for a quiet one.
        let cycles = printed.split(separator: "\n").filter { $0.contains("uploaded ") }
        #expect(cycles.contains { $0.contains("merged 2 changes into 1 task from 1 peer") }, "\(printed)")
        #expect(!cycles.contains { $0.contains("uploaded 0 changes; merged 0 changes") }, "\(printed)")
    }

    @Test func syncWatchWithOnlyAVdirBridgesWhatLandsThere() throws {
        let vdir = scratch.path("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        var environment = nextup("v", peer: nil).environment
        environment["NEXTUP_VDIR"] = vdir.path
        let local = NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("v").path, "NEXTUP_VDIR": vdir.path])
        let id = try local.run("add", "Written out by itself").out
        let watcher = Process()
        watcher.executableURL = NextupProcess.binary
        watcher.arguments = ["sync", "--watch"]
        watcher.environment = environment
        let output = Pipe()
        watcher.standardOutput = output
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL) } }
        #expect(eventually(within: 30) { FileManager.default.fileExists(atPath: vdir.appendingPathComponent("\(id).ics").path) })
        let phone = "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:watch-1\nSUMMARY:From the phone\nEND:VTODO\nEND:VCALENDAR\n"
        try Data(phone.utf8).write(to: vdir.appendingPathComponent("watch-1.ics"))
        #expect(eventually(within: 30) { (try? local.run("list", "--json").stdout.contains("From the phone")) == true })
        kill(watcher.processIdentifier, SIGTERM)
        #expect(eventually(within: 15) { !watcher.isRunning })
        #expect(watcher.terminationStatus == 0)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.contains("watching") && printed.contains(vdir.path))
        #expect(printed.contains("vdir: 1 created"), "\(printed)")
        #expect(printed.contains("stopped"))
    }

    @Test func concurrentSyncsOfOneStoreTakeTurns() throws {
        try makePeer()
        let a = nextup("a"), local = nextup("a", peer: nil)
        for n in 1...30 { _ = try local.run("add", "Pending \(n)") }
        let processes = try (1...6).map { _ -> Process in
            let p = Process()
            p.executableURL = NextupProcess.binary
            p.arguments = ["sync"]
            p.environment = a.environment
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        processes.forEach { $0.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path("peer").path)
        #expect(files.filter { $0.hasSuffix(".log") }.count == 1, "\(files)")
        #expect(files.count == 2 && files.contains("nextup-folder.id"), "\(files)")
        let fresh = try nextup("fresh").run("sync")
        #expect(fresh.stdout.contains("into 30 tasks from 1 peer") && !fresh.stdout.contains("skipped:"), "\(fresh)")
    }

    @Test func aDeletedStoreComesBackWithEveryField() throws {
        try makePeer()
        let a = nextup("a"), b = nextup("b")
        for n in 1...5 {
            _ = try a.run("add", "Task \(n)", "--category", "Admin", "--importance", "\(n % 3 + 1)")
        }
        _ = try b.run("add", "From B", "--urgency", "urgent")
        _ = try b.run("sync"); _ = try a.run("sync")
        let before = try exported(a)
        try FileManager.default.removeItem(at: scratch.path("a"))
        let restore = try a.run("sync")
        #expect(restore.status == 0, "\(restore)")
        #expect(try exported(a) == before)
    }

    @Test func aCopiedStoreTakesANewIdAndBothKeepTheirTasks() throws {
        try makePeer()
        let original = nextup("a")
        _ = try original.run("add", "Before the copy")
        _ = try original.run("sync")
        try FileManager.default.copyItem(at: scratch.path("a"), to: scratch.path("copy"))
        let copy = nextup("copy")
        _ = try original.run("add", "On the original")
        // Made without the peer folder, so that the copy finds out at its next sync.
        let made = try nextup("copy", peer: nil).run("add", "On the copy")
        #expect(made.status == 0)
        let first = try copy.run("sync")
        #expect(first.stdout.contains("this store is a copy of another one: it now uses replica id"), "\(first)")
        for _ in 0..<2 { _ = try original.run("sync"); _ = try copy.run("sync") }
        let titles = try Set(exported(original).values.compactMap { $0["title"] })
        #expect(titles == ["Before the copy", "On the original", "On the copy"])
        #expect(try exported(copy) == exported(original))
        let logs = try FileManager.default.contentsOfDirectory(atPath: scratch.path("peer").path).filter { $0.hasSuffix(".log") }
        #expect(logs.count == 2)
    }
}

/// Polls `condition` until it holds or `seconds` pass.
func eventually(within seconds: Double = 15, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}
