import Foundation
import NextUpCore
import NextUpStore
import NextUpSync
import Testing

/// Issue 10's five reproductions, each on real folders with the built binary:
/// a machine restored from a backup, a value too big for the log, a damaged
/// line in the middle of a log, a far-future version, an unmounted share.
@Suite(.serialized) struct SyncRepairEndToEndTests {
    let scratch = Scratch()

    func nextup(_ store: String, peer: String? = "peer") -> NextupProcess {
        var extra = ["NEXTUP_HOME": scratch.path(store).path]
        if let peer { extra["NEXTUP_PEER"] = scratch.path(peer).path }
        return NextupProcess(home: scratch.url, extra: extra)
    }

    func makeFolder(_ name: String) throws {
        try FileManager.default.createDirectory(at: scratch.path(name), withIntermediateDirectories: true)
    }

    func exported(_ process: NextupProcess) throws -> [String: [String: String]] {
        let result = try process.run("export")
        #expect(result.status == 0, "\(result)")
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: objects.map { ($0["id"] as! String, $0.mapValues(canonicalText)) })
    }

    func notes(_ process: NextupProcess, _ id: String) throws -> String? {
        let result = try process.run("show", id, "--json")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (object?["notes"] as? String) ?? ""
    }

    func replicaID(_ process: NextupProcess) throws -> String {
        let doctor = try process.run("doctor")
        let line = doctor.stdout.split(separator: "\n").first { $0.hasPrefix("replica:") } ?? ""
        return String(line.split(separator: " ").last ?? "")
    }

    @discardableResult
    func shell(_ args: String...) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    // MARK: 1. A machine restored from a backup

    @Test func aMachineRestoredFromABackupGetsBackWhatItLost() throws {
        try makeFolder("peer")
        let a = nextup("a"), b = nextup("b")
        let id = try a.run("add", "task").out
        #expect(try b.run("sync").status == 0)
        let log = scratch.path("peer/nextup-\(try replicaID(a)).log")
        #expect(try shell("cp", "-a", scratch.path("a").path, scratch.path("a-backup").path) == 0)
        #expect(try shell("cp", "-a", log.path, scratch.path("log-backup").path) == 0)

        #expect(try a.run("edit", id, "--notes", "edited after backup").status == 0)
        #expect(try b.run("sync").status == 0)
        #expect(try notes(b, id) == "edited after backup")

        // The restore: store and log back as they were.
        try FileManager.default.removeItem(at: scratch.path("a"))
        #expect(try shell("cp", "-a", scratch.path("a-backup").path, scratch.path("a").path) == 0)
        #expect(try shell("cp", "-a", scratch.path("log-backup").path, log.path) == 0)
        #expect(try notes(a, id) == "")
        // Before any repair, B's doctor sees that A's log lost what B holds.
        let doctor = try b.run("doctor")
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("lacks 1 change this store holds under its replica id"), "\(doctor)")

        #expect(try a.run("sync", "--full").status == 0)
        let onB = try b.run("sync", "--full")
        #expect(onB.status == 0, "\(onB)")
        #expect(onB.stdout.contains("re-published 1 change"), "\(onB)")
        let back = try a.run("sync")
        #expect(back.status == 0, "\(back)")
        #expect(try notes(a, id) == "edited after backup")
        for _ in 0..<2 { _ = try b.run("sync"); _ = try a.run("sync") }
        #expect(try exported(a) == exported(b))
        #expect(try a.run("doctor").status == 0)
        #expect(try b.run("doctor").status == 0)
    }

    // MARK: 2. A task too big for the log

    @Test func aValueTooBigForTheLogIsRefusedAndTheLargestAcceptedOneSyncs() throws {
        try makeFolder("peer")
        let a = nextup("a"), b = nextup("b")
        // 100,000 characters, each an "e" with 40 combining accents: 8.1 MB.
        let heavy = String(repeating: "e" + String(repeating: "\u{301}", count: 40), count: 100_000)
        let file = scratch.path("big.json")
        try JSONSerialization.data(withJSONObject: [["title": "Heavy", "notes": heavy]]).write(to: file)
        let refused = try a.run("import", file.path)
        #expect(refused.status != 0, "\(refused.status)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr.prefix(300))")
        #expect(refused.stderr.contains("notes") && refused.stderr.contains("bytes"), "\(refused.stderr.prefix(300))")
        #expect(try a.run("count").out == "0" || a.run("count").stderr.contains("no nextup store at"))

        // A title of 1,000 such characters is refused by edit too.
        let id = try a.run("add", "Plain").out
        let title = try a.run("edit", id, "--title", String(repeating: "e" + String(repeating: "\u{301}", count: 40), count: 1_000))
        #expect(title.status != 0 && title.stderr.contains("title") && title.stderr.contains("bytes"), "\(title.stderr.prefix(300))")

        // The largest notes accepted (bytes, not characters) reach the other machine.
        let largest = String(repeating: "e\u{301}\u{301}\u{301}\u{301}", count: TaskText.maxNotesBytes / 9)
        let fits = scratch.path("fits.json")
        try JSONSerialization.data(withJSONObject: [["title": "Largest", "notes": largest]]).write(to: fits)
        let imported = try a.run("import", fits.path)
        #expect(imported.status == 0, "\(imported.stderr.prefix(300))")
        let synced = try b.run("sync")
        #expect(synced.status == 0 && !synced.stdout.contains("skipped:"), "\(synced.stdout.prefix(500))")
        #expect(try exported(b) == exported(a))
    }

    // MARK: 3. A damaged line in the middle of a log

    @Test func aDamagedLineInTheMiddleOfItsOwnLogIsRewrittenByItsWriter() throws {
        try makeFolder("peer")
        let a = nextup("a")
        for title in ["First task", "Second task with a long enough title", "Third task"] {
            #expect(try a.run("add", title).status == 0)
        }
        let log = scratch.path("peer/nextup-\(try replicaID(a)).log")
        var bytes = [UInt8](try Data(contentsOf: log))
        let size = bytes.count
        let start = try #require(String(decoding: bytes, as: UTF8.self).range(of: "with a long enough")).lowerBound.utf16Offset(in: String(decoding: bytes, as: UTF8.self))
        for i in 0..<20 { bytes[start + i] = UInt8(ascii: "X") }
        // Overwritten in place: same size, same inode.
        let handle = try FileHandle(forWritingTo: log)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        #expect(try Data(contentsOf: log).count == size)

        let reader = try nextup("b").run("sync")
        #expect(reader.stdout.contains("checksum mismatch"), "\(reader)")
        let doctor = try a.run("doctor")
        #expect(doctor.status != 0 && doctor.stdout.contains("is damaged"), "\(doctor)")

        let full = try a.run("sync", "--full")
        #expect(full.stdout.contains("rewrote this replica's log (a line in it was damaged)"), "\(full)")
        let fresh = try nextup("c").run("sync")
        #expect(fresh.status == 0 && !fresh.stdout.contains("skipped:"), "\(fresh)")
        #expect(try exported(nextup("c")) == exported(a))
        let again = try nextup("b").run("sync")
        #expect(!again.stdout.contains("skipped:"), "\(again)")
        #expect(try exported(nextup("b")) == exported(a))
        #expect(try a.run("doctor").status == 0)
    }

    @Test func anInPlaceOverwriteIsNoticedByAPlainSync() throws {
        try makeFolder("peer")
        let a = nextup("a")
        #expect(try a.run("add", "Only task with a title to damage").status == 0)
        let log = scratch.path("peer/nextup-\(try replicaID(a)).log")
        var bytes = [UInt8](try Data(contentsOf: log))
        bytes[bytes.count - 40] = UInt8(ascii: "#")
        let handle = try FileHandle(forWritingTo: log)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        let sync = try a.run("sync")
        #expect(sync.stdout.contains("rewrote this replica's log (a line in it was damaged)"), "\(sync)")
        let fresh = try nextup("c").run("sync")
        #expect(fresh.stdout.contains("into 1 task") && !fresh.stdout.contains("skipped:"), "\(fresh)")
    }

    // MARK: 4. A far-future version

    @Test func aFarFutureVersionIsRefusedAndNeverBricksAReplica() throws {
        try makeFolder("peer")
        let a = nextup("a"), b = nextup("b")
        let id = try a.run("add", "Before").out
        let stranger = ReplicaID.make()
        let poisoned = FieldChange(task: TaskID.make(), field: .title, value: .string("from year 292 million"),
                                   version: Version(timestamp: HybridTimestamp(rawValue: Int64.max), replica: stranger))
        let hijack = FieldChange(task: TaskID(id)!, field: .title, value: .string("hijacked"),
                                 version: Version(timestamp: HybridTimestamp(rawValue: 0x7fff_0000_0000_0000), replica: stranger))
        var bytes = LogHeader(replica: stranger, created: 0).encodedLine()
        bytes += LogRecord(task: poisoned.task, changes: [poisoned]).encodedLine(owner: stranger)
        bytes += LogRecord(task: hijack.task, changes: [hijack]).encodedLine(owner: stranger)
        try Data(bytes).write(to: scratch.path("peer/nextup-\(stranger.rawValue).log"))

        for side in [a, b] {
            let sync = try side.run("sync")
            #expect(sync.status == 0, "\(sync)")
            #expect(sync.stdout.contains("more than a year ahead"), "\(sync)")
            let added = try side.run("add", "After")
            #expect(added.status == 0, "\(added)")
            #expect(try side.run("edit", id, "--notes", "still editable").status == 0)
            #expect(try side.run("done", id).status == 0)
        }
        #expect(try exported(a)[id]?["title"] == "Before")
        let fresh = try nextup("c").run("sync")
        #expect(fresh.status == 0, "\(fresh)")
        #expect(try nextup("c").run("add", "New").status == 0)
    }

    @Test func aStoreWhoseClockWasAlreadyPoisonedRecoversOnOpen() throws {
        try makeFolder("peer")
        let a = nextup("a"), b = nextup("b")
        let id = try a.run("add", "Shared").out
        #expect(try b.run("sync").status == 0)
        // B as an older nextup left it: a far-future version merged, the clock saved.
        do {
            let store = try TaskStore.open(StoreLocation(folder: scratch.path("b")))
            let poison = FieldChange(task: TaskID(id)!, field: .title, value: .string("poisoned"),
                                     version: Version(timestamp: HybridTimestamp(rawValue: Int64.max), replica: ReplicaID.make()))
            _ = try store.mergeRemote([poison])
        }
        // (This nextup's merge no longer carries the clock along: set it as the older one did.)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", scratch.path("b").appendingPathComponent("nextup.sqlite").path,
                            "UPDATE meta SET value = '\(Int64.max)' WHERE key = 'clock';"]
        #expect(try NextupProcess.capture(sqlite).status == 0)
        let added = try b.run("add", "After the poison")
        #expect(added.status == 0, "\(added)")
        let edited = try b.run("edit", id, "--title", "Renamed on B")
        #expect(edited.status == 0, "\(edited)")
        #expect(try a.run("sync").status == 0)
        #expect(try exported(a)[id]?["title"] == "Renamed on B")
        let full = try b.run("sync", "--full")
        #expect(full.status == 0, "\(full)")
        #expect(try exported(a) == exported(b))
    }

    // MARK: 5. An unmounted share

    @Test func anUnmountedShareIsRefusedAndNeverBecomesALocalFolder() throws {
        try makeFolder("share")
        try makeFolder("point")
        let share = scratch.path("share").path, point = scratch.path("point").path
        // A real bind mount when this runs as root and may mount; otherwise an
        // unmounted share is simulated by what it leaves: an empty folder.
        let mounted = try getuid() == 0 && shell("mount", "--bind", share, point) == 0
        defer { if mounted { _ = try? shell("umount", point) } }
        if !mounted {
            try FileManager.default.removeItem(atPath: point)
            try FileManager.default.createSymbolicLink(atPath: point, withDestinationPath: share)
        }
        let a = nextup("a", peer: "point"), b = nextup("b", peer: "point")
        let id = try a.run("add", "Shared").out
        #expect(try b.run("sync").status == 0)
        #expect(FileManager.default.fileExists(atPath: share + "/nextup-folder.id"))

        if mounted {
            #expect(try shell("umount", point) == 0)
        } else {
            try FileManager.default.removeItem(atPath: point)
            try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)
        }
        let edit = try a.run("edit", id, "--notes", "made while unmounted")
        #expect(edit.stderr.contains("looks unmounted or replaced"), "\(edit)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: point).isEmpty)
        let sync = try a.run("sync")
        #expect(sync.status != 0 && sync.stderr.split(separator: "\n").count == 1, "\(sync)")
        #expect(sync.stderr.contains("the peer folder looks unmounted or replaced: \(point)"), "\(sync)")
        let doctor = try a.run("doctor")
        #expect(doctor.status != 0 && doctor.stdout.contains("looks unmounted or replaced"), "\(doctor)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: point).isEmpty)

        // Mounted again, the change made meanwhile goes out.
        if mounted {
            #expect(try shell("mount", "--bind", share, point) == 0)
        } else {
            try FileManager.default.removeItem(atPath: point)
            try FileManager.default.createSymbolicLink(atPath: point, withDestinationPath: share)
        }
        #expect(try a.run("sync").status == 0)
        #expect(try b.run("sync").status == 0)
        #expect(try notes(b, id) == "made while unmounted")
        #expect(try a.run("doctor").status == 0)
    }

    @Test func aReplacedFolderIsRefusedUntilAdoptedOnPurpose() throws {
        try makeFolder("peer")
        try makeFolder("other")
        let a = nextup("a")
        #expect(try a.run("add", "Mine").status == 0)
        // Another folder, used by another store first: it has its own marker.
        #expect(try nextup("c", peer: "other").run("sync").status == 0)
        let onOther = nextup("a", peer: "other")
        let refused = try onOther.run("sync")
        #expect(refused.status != 0 && refused.stderr.contains("looks unmounted or replaced"), "\(refused)")
        #expect(refused.stderr.contains("--adopt-folder"))
        let adopted = try onOther.run("sync", "--adopt-folder")
        #expect(adopted.status == 0, "\(adopted)")
        #expect(try onOther.run("sync").status == 0)
        // The first folder still holds this store's own log: the same folder
        // whatever its marker says, so going back to it needs no flag.
        #expect(try a.run("sync").status == 0)
        // A brand-new empty folder is fine for a store that never synced.
        try makeFolder("new")
        #expect(try nextup("d", peer: "new").run("sync").status == 0)
    }

    // MARK: Smaller

    @Test func syncWatchPrintsADamagedFileItSkips() throws {
        try makeFolder("peer")
        let a = nextup("a"), b = nextup("b")
        _ = try a.run("add", "Good")
        let log = scratch.path("peer/nextup-\(try replicaID(a)).log")
        var bytes = [UInt8](try Data(contentsOf: log))
        bytes[bytes.count - 30] = UInt8(ascii: "#")
        try Data(bytes).write(to: log)
        _ = try b.run("count")
        let output = scratch.path("watch.out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let watcher = Process()
        watcher.executableURL = NextupProcess.binary
        watcher.arguments = ["sync", "--watch"]
        watcher.environment = b.environment
        watcher.standardOutput = try FileHandle(forWritingTo: output)
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL) } }
        let printed = eventually(within: 30) {
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("skipped: nextup-")
        }
        kill(watcher.processIdentifier, SIGTERM)
        #expect(eventually(within: 15) { !watcher.isRunning })
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(printed, "\(text)")
        #expect(text.contains("checksum mismatch"), "\(text)")
    }

    @Test func aKilledRewritesTemporaryFileIsRemovedByItsWriterAtOnce() throws {
        try makeFolder("peer")
        let a = nextup("a")
        #expect(try a.run("add", "One").status == 0)
        let log = "nextup-\(try replicaID(a)).log"
        let leftover = scratch.path("peer/.nextup-\(log)-0f0f0f0f-0000-4000-8000-000000000000.tmp")
        let someoneElses = scratch.path("peer/.nextup-nextup-0f0f0f0f-0000-4000-8000-000000000000.log-1.tmp")
        try Data(repeating: 0x41, count: 1_000).write(to: leftover)
        try Data(repeating: 0x41, count: 1_000).write(to: someoneElses)
        #expect(try a.run("sync").status == 0)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(FileManager.default.fileExists(atPath: someoneElses.path))
    }
}
