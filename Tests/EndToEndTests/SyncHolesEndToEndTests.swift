import Foundation
import NextUpCore
import NextUpStore
import NextUpSync
import Testing

/// Issue 37's holes at the edges of sync, each on real folders with the built
/// binary. Each machine has its own peer folder; the test is the file-sync
/// tool, copying logs between them in the order a scenario needs.
@Suite(.serialized) struct SyncHolesEndToEndTests {
    let scratch = Scratch()

    func nextup(_ store: String, peer: String? = nil) -> NextupProcess {
        var extra = ["NEXTUP_HOME": scratch.path(store).path]
        extra["NEXTUP_PEER"] = scratch.path(peer ?? "peer-" + store).path
        return NextupProcess(home: scratch.url, extra: extra)
    }

    func makeFolders(_ names: String...) throws {
        for name in names { try FileManager.default.createDirectory(at: scratch.path(name), withIntermediateDirectories: true) }
    }

    func replicaID(_ process: NextupProcess) throws -> String {
        let doctor = try process.run("doctor")
        let line = doctor.stdout.split(separator: "\n").first { $0.hasPrefix("replica:") } ?? ""
        return String(line.split(separator: " ").last ?? "")
    }

    /// Copies `machine`'s own log from its peer folder into `folder`, as a file-sync tool would.
    func copyLog(of process: NextupProcess, from: String, to folder: String) throws {
        let name = "nextup-\(try replicaID(process)).log"
        let target = scratch.path(folder).appendingPathComponent(name)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: scratch.path(from).appendingPathComponent(name), to: target)
    }

    func exportedObjects(_ process: NextupProcess) throws -> [[String: Any]] {
        let result = try process.run("export")
        #expect(result.status == 0, "\(result)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    }

    /// A process whose wall clock is `seconds` off (an `LD_PRELOAD` shim
    /// over `clock_gettime`, `gettimeofday` and `time`, built here with `cc`).
    func withClock(_ process: NextupProcess, offBy seconds: Int64) throws -> NextupProcess {
        let shim = scratch.path("clockshim.so")
        if !FileManager.default.fileExists(atPath: shim.path) {
            let source = scratch.path("clockshim.c")
            try Self.clockShim.write(to: source, atomically: true, encoding: .utf8)
            let cc = Process()
            cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            cc.arguments = ["cc", "-shared", "-fPIC", "-o", shim.path, source.path, "-ldl"]
            try cc.run()
            cc.waitUntilExit()
            #expect(cc.terminationStatus == 0, "cc could not build the clock shim")
        }
        var moved = process
        moved.environment["LD_PRELOAD"] = shim.path
        moved.environment["NEXTUP_TEST_CLOCK_OFFSET"] = String(seconds)
        return moved
    }

    static let clockShim = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <sys/time.h>
        #include <time.h>
        static long long offset(void) { const char *s = getenv("NEXTUP_TEST_CLOCK_OFFSET"); return s ? atoll(s) : 0; }
        int clock_gettime(clockid_t id, struct timespec *ts) {
            static int (*real)(clockid_t, struct timespec *);
            if (!real) real = dlsym(RTLD_NEXT, "clock_gettime");
            int r = real(id, ts);
            if (r == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) ts->tv_sec += offset();
            return r;
        }
        int gettimeofday(struct timeval *tv, void *tz) {
            static int (*real)(struct timeval *, void *);
            if (!real) real = dlsym(RTLD_NEXT, "gettimeofday");
            int r = real(tv, tz);
            if (r == 0 && tv) tv->tv_sec += offset();
            return r;
        }
        time_t time(time_t *t) { struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts); if (t) *t = ts.tv_sec; return ts.tv_sec; }
        """

    static let twoYears: Int64 = 2 * 366 * 86_400

    // MARK: 1. A change that arrives before its task's creation

    @Test func aChangeBeforeItsTasksCreationIsHeldUntilTheCreationArrives() throws {
        try makeFolders("peer-a", "peer-b", "peer-c")
        let a = nextup("a"), b = nextup("b"), c = nextup("c")
        let id = try a.run("add", "buy milk").out
        #expect(try b.run("sync").status == 0)       // B's first snapshot: empty
        try copyLog(of: a, from: "peer-a", to: "peer-b")
        #expect(try b.run("sync").status == 0)
        #expect(try b.run("edit", id, "--notes", "two litres").status == 0)
        #expect(try c.run("sync").status == 0)
        // B's log reaches C before A's.
        try copyLog(of: b, from: "peer-b", to: "peer-c")
        #expect(try c.run("sync").status == 0)

        // No blank task: not listed, not counted, not exported, not named by its id.
        let list = try c.run("list", "--all")
        #expect(list.status == 0 && !list.stdout.contains(String(id.prefix(8))), "\(list)")
        #expect(try c.run("count").out == "0")
        #expect(try exportedObjects(c).isEmpty)
        let delete = try c.run("delete", String(id.prefix(8)))
        #expect(delete.status != 0, "\(delete)")
        let doctor = try c.run("doctor")
        #expect(doctor.status == 1 && doctor.stdout.contains("whose creation has not arrived yet"), "\(doctor)")
        // An export taken now imports elsewhere.
        let file = scratch.path("c.json").path
        #expect(try c.run("export", file).status == 0)
        let imported = try nextup("d").run("import", file)
        #expect(imported.status == 0, "\(imported)")

        // A's log arrives: the task shows with B's change applied.
        try copyLog(of: a, from: "peer-a", to: "peer-c")
        #expect(try c.run("sync").status == 0)
        let shown = try c.run("show", id, "--json")
        #expect(shown.status == 0, "\(shown)")
        let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        #expect(object?["title"] as? String == "buy milk")
        #expect(object?["notes"] as? String == "two litres")
        #expect(try c.run("count").out == "1")
        #expect(try c.run("doctor").status == 0)
    }

    // MARK: 2. A sync with the clock more than a year behind

    @Test func linesRefusedWhileTheClockIsBehindAreTakenOnceItIsRight() throws {
        try makeFolders("peer")
        let a = nextup("a", peer: "peer"), b = nextup("b", peer: "peer")
        let behind = try withClock(b, offBy: -Self.twoYears)
        let id = try a.run("add", "made in the present").out
        let early = try behind.run("sync")
        #expect(early.status == 0, "\(early)")
        #expect(early.stderr.contains("ahead of this machine's clock") || early.stdout.contains("ahead of this machine's clock"), "\(early)")
        #expect(try behind.run("count").out == "0")
        let doctorBehind = try behind.run("doctor")
        #expect(doctorBehind.status == 1 && doctorBehind.stdout.contains("not merged"), "\(doctorBehind)")

        // The clock is right again: doctor names what is missing, one plain sync takes it.
        let doctor = try b.run("doctor")
        #expect(doctor.status == 1 && doctor.stdout.contains("the next `nextup sync` takes them"), "\(doctor)")
        #expect(try b.run("sync").status == 0)
        #expect(try b.run("show", id).status == 0)
        #expect(try b.run("count").out == "1")
        #expect(try b.run("doctor").status == 0)
    }

    // MARK: 5. Opaque fields with float, array or object values

    @Test func opaqueValuesOfEveryJSONTypeRoundTripThroughStoreExportImportAndLog() throws {
        try makeFolders("peer", "peer-d")
        // A newer nextup's log: a task with fields this build does not know.
        let newer = ReplicaID.make()
        let task = TaskID.make()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let version = Version(timestamp: HybridTimestamp(millis: now - 60_000), replica: newer)
        let opaque: [(String, FieldValue)] = [("checklist", .json(#"["milk","eggs"]"#)), ("estimate_h", .json("1.5")),
                                              ("meta", .json(#"{"a":[1,{"b":null}],"z":true}"#))]
        var changes = [FieldChange(task: task, field: .title, value: .string("from a newer nextup"), version: version),
                       FieldChange(task: task, field: .created, value: .int(now - 60_000), version: version)]
        for (name, value) in opaque { changes.append(FieldChange(task: task, field: TaskField(rawValue: name)!, value: value, version: version)) }
        var bytes = LogHeader(replica: newer, created: now).encodedLine()
        bytes += LogRecord(task: task, changes: changes.sorted { $0.field < $1.field }).encodedLine(owner: newer)
        try Data(bytes).write(to: scratch.path("peer").appendingPathComponent(LogFormat.fileName(for: newer)))

        let a = nextup("a", peer: "peer")
        let synced = try a.run("sync")
        #expect(synced.status == 0 && !synced.stderr.contains("skipped") && !synced.stdout.contains("skipped"), "\(synced)")
        #expect(try a.run("doctor").status == 0)
        func extra(_ objects: [[String: Any]]) -> String {
            canonicalText(objects.first { $0["id"] as? String == task.rawValue }?["extra"] ?? "none")
        }
        let fromA = try exportedObjects(a)
        #expect(extra(fromA) == "{checklist=[milk,eggs],estimate_h=1.5,meta={a=[1,{b=<null>}],z=1}}", "\(fromA)")

        // Export, import elsewhere, publish from there, read on a third machine.
        let file = scratch.path("a.json").path
        #expect(try a.run("export", file).status == 0)
        let d = nextup("d", peer: "peer-d"), e = nextup("e", peer: "peer-d")
        #expect(try d.run("import", file).status == 0)
        #expect(try d.run("sync").status == 0)
        let onE = try e.run("sync")
        #expect(onE.status == 0 && !onE.stderr.contains("skipped"), "\(onE)")
        #expect(extra(try exportedObjects(d)) == extra(fromA))
        #expect(extra(try exportedObjects(e)) == extra(fromA))
        #expect(try e.run("doctor").status == 0)
    }

    // MARK: 8. Text in two Unicode spellings

    @Test func textTypedInEitherUnicodeSpellingIsStoredAndExportedInOne() throws {
        try makeFolders("peer")
        let a = nextup("a", peer: "peer"), b = nextup("b", peer: "peer")
        let composed = "caf\u{00E9}", decomposed = "cafe\u{0301}"
        let id = try a.run("add", "task").out
        #expect(try b.run("sync").status == 0)
        #expect(try a.run("edit", id, "--tag", composed).status == 0)
        #expect(try b.run("edit", id, "--tag", decomposed, "--title", "r\u{00E9}sum\u{00E9} " + decomposed).status == 0)
        for machine in [a, b, a] { #expect(try machine.run("sync").status == 0) }
        let onA = try a.run("export"), onB = try b.run("export")
        // Compared as bytes: Swift's == would call the two spellings equal.
        #expect(Array(onA.stdout.utf8) == Array(onB.stdout.utf8), "\(onA.stdout)\n\(onB.stdout)")
        #expect(!onA.stdout.unicodeScalars.contains("\u{0301}"), "\(onA.stdout)")
        #expect(onA.stdout.unicodeScalars.filter { $0 == "\u{00E9}" }.count >= 4, "\(onA.stdout)")
    }

    // MARK: 7. A conflict copy of a large log

    @Test func aConflictCopyRepublishesOnlyWhatThisReplicaLacked() throws {
        try makeFolders("peer")
        let p = nextup("p", peer: "peer"), a = nextup("a", peer: "peer")
        let tasks = (0..<300).map { #"{"title":"task \#($0) with a title long enough to weigh something"}"# }
        let file = scratch.path("tasks.json")
        try Data(("[" + tasks.joined(separator: ",") + "]").utf8).write(to: file)
        #expect(try p.run("import", file.path).status == 0)
        #expect(try p.run("sync").status == 0)
        #expect(try a.run("sync").status == 0)
        let ownLog = scratch.path("peer").appendingPathComponent("nextup-\(try replicaID(a)).log")
        let before = try FileManager.default.attributesOfItem(atPath: ownLog.path)[.size] as! Int

        // Syncthing's conflict copy of P's log, holding one change A lacks.
        let replica = ReplicaID(try replicaID(p))!
        let logName = LogFormat.fileName(for: replica)
        var copy = try Data(contentsOf: scratch.path("peer").appendingPathComponent(logName))
        let first = try #require(try exportedObjects(a).first?["id"] as? String)
        let change = FieldChange(task: TaskID(first)!, field: .notes, value: .string("only in the copy"),
                                 version: Version(timestamp: HybridTimestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)), replica: replica))
        copy += LogRecord(task: TaskID(first)!, changes: [change]).encodedLine(owner: replica)
        let copyName = "nextup-\(replica.rawValue).sync-conflict-20261126-120000-ABCDEFG.log"
        try copy.write(to: scratch.path("peer").appendingPathComponent(copyName))

        let synced = try a.run("sync")
        #expect(synced.status == 0, "\(synced)")
        let after = try FileManager.default.attributesOfItem(atPath: ownLog.path)[.size] as! Int
        // One change re-published, not the copy's 300 tasks.
        #expect(after - before < 1_000, "own log grew from \(before) to \(after) bytes")
        let shown = try a.run("show", first, "--json")
        #expect(shown.stdout.contains("only in the copy"), "\(shown)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("peer").appendingPathComponent(copyName + ".merged").path))
        // The change reaches a machine that never saw the copy.
        try FileManager.default.removeItem(at: scratch.path("peer").appendingPathComponent(copyName + ".merged"))
        let c = nextup("c", peer: "peer")
        #expect(try c.run("sync").status == 0)
        #expect(try c.run("show", first, "--json").stdout.contains("only in the copy"))
    }

    // MARK: 4 and 6. Retirement from what the logs say

    func touchOld(_ file: URL, days: Int) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-Double(days) * 86_400)], ofItemAtPath: file.path)
    }

    @Test func aLogThatOnlyLooksOldIsNotRetiredAndASilentOneIs() throws {
        try makeFolders("peer")
        let a = nextup("a", peer: "peer"), b = nextup("b", peer: "peer")
        for title in ["one", "two", "three"] { #expect(try a.run("add", title).status == 0) }
        #expect(try b.run("sync").status == 0)
        let aLog = scratch.path("peer").appendingPathComponent("nextup-\(try replicaID(a)).log")
        // A sync tool that sets old modification times.
        try touchOld(aLog, days: 200)
        let early = try b.run("sync")
        #expect(early.status == 0 && !(early.stdout + early.stderr).contains("retired"), "\(early)")
        #expect(FileManager.default.fileExists(atPath: aLog.path))

        // 200 days later by B's clock, with nothing new from A: retired, in those words.
        let later = try withClock(b, offBy: 200 * 86_400)
        let retired = try later.run("sync")
        let words = retired.stdout + retired.stderr
        #expect(retired.status == 0 && words.contains("retired \(aLog.lastPathComponent): its machine has made no change for 200 days"), "\(retired)")
        #expect(!words.contains("restored from a backup"), "\(retired)")
        #expect(!FileManager.default.fileExists(atPath: aLog.path))
        // The set-aside log is kept a while, though its modification time is old.
        #expect(try b.run("sync").status == 0)
        #expect(FileManager.default.fileExists(atPath: aLog.path + ".merged"))
        // A comes back and says why it rewrites its log.
        let back = try a.run("sync")
        #expect((back.stdout + back.stderr).contains("another replica had retired it"), "\(back)")
        let c = nextup("c", peer: "peer")
        #expect(try c.run("sync").status == 0)
        #expect(try c.run("count").out == "3")
    }

    @Test func aDeadMachinesTornLogWarnsOnceAndIsRetired() throws {
        try makeFolders("peer")
        let a = nextup("a", peer: "peer"), b = nextup("b", peer: "peer")
        #expect(try a.run("add", "one").status == 0)
        let aLog = scratch.path("peer").appendingPathComponent("nextup-\(try replicaID(a)).log")
        // A died in the middle of its last write.
        let handle = try FileHandle(forWritingTo: aLog)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"task":"0000"#.utf8))
        try handle.close()
        let first = try b.run("sync")
        #expect((first.stdout + first.stderr).contains("ends inside a line"), "\(first)")
        let second = try b.run("sync")
        #expect(second.status == 0 && !(second.stdout + second.stderr).contains("ends inside a line"), "\(second)")
        let retired = try withClock(b, offBy: 200 * 86_400).run("sync")
        #expect((retired.stdout + retired.stderr).contains("retired \(aLog.lastPathComponent)"), "\(retired)")
        #expect(!FileManager.default.fileExists(atPath: aLog.path))
    }
}
