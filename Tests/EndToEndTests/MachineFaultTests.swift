import Foundation
import Testing

/// What a real machine does to nextup (issue 15): a full disk under the store
/// and under the peer folder, a peer folder that becomes unreadable, a store
/// folder that turns read-only, SIGKILL of `sync --watch` in the middle of a
/// compaction and of the TUI in the middle of writes. Every refused write is
/// one clear line with a non-zero exit; nothing acknowledged is ever lost.
@Suite(.serialized) struct MachineFaultTests {
    let scratch = Scratch()

    func cli(store: URL, peer: URL? = nil) -> NextupProcess {
        var extra = ["NEXTUP_HOME": store.path]
        if let peer { extra["NEXTUP_PEER"] = peer.path }
        return NextupProcess(home: scratch.url, extra: extra)
    }

    func exported(_ process: NextupProcess) throws -> [String: String] {
        let result = try process.run("export")
        guard result.status == 0 else { throw MachineFaults.Failure(description: "export failed: \(result)") }
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        var out: [String: String] = [:]
        for object in objects { out[object["id"] as! String] = canonicalText(object) }
        return out
    }

    func title(_ process: NextupProcess, _ id: String) throws -> String? {
        let r = try process.run("show", id, "--json")
        guard r.status == 0 else { return nil }
        return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["title"] as? String
    }

    // MARK: - Full disk

    @Test func aFullDiskUnderTheStoreRefusesEachWriteInOneLineAndLosesNothing() throws {
        let disk = try SmallDisk(at: scratch.path("disk"), size: "2m")
        let store = disk.url.appendingPathComponent("store")
        let a = cli(store: store)
        var titles: [String: String] = [:]
        for n in 1...20 {
            let r = try a.run("add", "Before \(n)", "--urgency", "urgent", "--notes", "kept \(n)")
            try #require(r.status == 0, "\(r)")
            titles[r.out] = "Before \(n)"
        }
        let ids = titles.keys.sorted()
        let before = try exported(a)

        let filler = try MachineFaults.fill(disk.url)
        #expect(MachineFaults.freeBytes(disk.url) < 64 * 1024)
        let big = String(repeating: "n", count: 20_000)
        try Data("[{\"title\": \"Imported while full\"}]".utf8).write(to: scratch.path("import.json"))
        var refused = 0, added: [String: String] = [:], touched: Set<String> = [], doneIDs: Set<String> = []
        for n in 1...12 {
            let attempts: [[String]] = [
                ["add", "During \(n)", "--notes", big],
                ["edit", ids[n], "--title", "Edited \(n)"],
                ["done", ids[n + 1]],
                ["import", scratch.path("import.json").path],
            ]
            for args in attempts {
                let r = try a.run(args)
                if r.status == 0 {
                    // Acknowledged: it must survive.
                    if args[0] == "add" { added[r.out] = args[1] }
                    if args[0] == "edit" { titles[args[1]] = args[3]; touched.insert(args[1]) }
                    if args[0] == "done" { doneIDs.insert(args[1]); touched.insert(args[1]) }
                } else {
                    refused += 1
                    #expect(r.isOneClearLine, "\(args[0]): \(r)")
                    #expect(r.stderr.contains("the disk is full"), "\(args[0]): \(r)")
                }
            }
        }
        #expect(refused > 0, "the disk was full, yet every write succeeded")
        // Reads say the same in one line (SQLite must grow its shared memory to read a WAL store).
        let count = try a.run("count")
        #expect(count.status == 0 || (count.isOneClearLine && count.stderr.contains("the disk is full")), "\(count)")

        try FileManager.default.removeItem(at: filler)
        #expect(try integrityCheck(store) == "ok")
        let doctor = try a.run("doctor")
        #expect(doctor.status == 0 && doctor.stdout.contains("no problems found"), "\(doctor)")
        let after = try exported(a)
        for (id, text) in before where !touched.contains(id) {
            #expect(after[id] == text, "\(id) changed or vanished although no acknowledged write touched it")
        }
        for (id, expected) in titles.merging(added, uniquingKeysWith: { $1 }) {
            #expect(try title(a, id) == expected, "acknowledged write to \(id) lost")
        }
        for id in doneIDs { #expect(after[id]?.contains("done=1") == true, "acknowledged done of \(id) lost") }
        let again = try a.run("add", "After the space came back")
        #expect(again.status == 0, "\(again)")
    }

    @Test func aFullPeerFolderKeepsEveryChangeAndPublishesItWhenSpaceReturns() throws {
        let disk = try SmallDisk(at: scratch.path("peer"), size: "512k")
        let a = cli(store: scratch.path("a"), peer: disk.url), b = cli(store: scratch.path("b"), peer: disk.url)
        for n in 1...5 { try #require(try a.run("add", "Published \(n)").status == 0) }
        try #require(try a.run("sync").status == 0)

        let filler = try MachineFaults.fill(disk.url)
        var kept: [String] = []
        for n in 1...5 {
            let r = try a.run("add", "Written while the peer folder was full \(n)", "--notes", String(repeating: "p", count: 9_000))
            // Saved in the store (acknowledged), with one line saying it is not published yet.
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("not published"), "\(r)")
            kept.append(r.out)
        }
        let sync = try a.run("sync")
        #expect(sync.isOneClearLine && sync.stderr.contains("No space left on device"), "\(sync)")
        #expect(try a.run("count").out == "10")

        try FileManager.default.removeItem(at: filler)
        let resumed = try a.run("sync")
        #expect(resumed.status == 0, "\(resumed)")
        // The write the full disk cut short is this replica's own: repaired, not reported as damage.
        #expect(!resumed.stdout.contains("skipped"), "\(resumed)")
        let fresh = try b.run("sync")
        #expect(fresh.status == 0, "\(fresh)")
        #expect(try exported(b) == exported(a))
        for id in kept { #expect(try title(b, id) != nil, "\(id) never reached the other replica") }
        // A second look finds the log whole: nothing skipped, nothing left to merge.
        let quiet = try b.run("sync", "--full")
        #expect(quiet.status == 0 && !quiet.stdout.contains("skipped"), "\(quiet)")
    }

    // MARK: - Permissions and read-only file systems

    /// Runs as `nobody` when root (root ignores permission bits).
    var asNobody: [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    }

    func ownedByRunner(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        if getuid() == 0 { chown(url.path, 65534, 65534) }
    }

    @Test func aPeerFolderThatBecomesUnreadableIsOneLineAndTheChangesWait() throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.url.path)
        let peer = scratch.path("peer")
        try ownedByRunner(peer)
        try ownedByRunner(scratch.path("a"))
        try ownedByRunner(scratch.path("b"))
        let a = cli(store: scratch.path("a"), peer: peer), b = cli(store: scratch.path("b"), peer: peer)
        try #require(try a.run(["add", "Before"], prefix: asNobody).status == 0)
        try #require(try a.run(["sync"], prefix: asNobody).status == 0)

        chmod(peer.path, 0o000)
        let add = try a.run(["add", "While unreadable"], prefix: asNobody)
        #expect(add.status == 0, "\(add)")
        #expect(add.stderr.split(separator: "\n").count == 1 && add.stderr.contains("not published"), "\(add)")
        let sync = try a.run(["sync"], prefix: asNobody)
        #expect(sync.isOneClearLine, "\(sync)")
        #expect(sync.stderr.contains("Permission denied") || sync.stderr.contains("cannot read"), "\(sync)")
        let doctor = try a.run(["doctor"], prefix: asNobody)
        #expect(doctor.stdout.contains(peer.path) && !doctor.stdout.contains("no problems found"), "\(doctor)")

        chmod(peer.path, 0o755)
        #expect(try a.run(["sync"], prefix: asNobody).status == 0)
        #expect(try b.run(["sync"], prefix: asNobody).status == 0)
        #expect(try exported(b) == exported(a))
        #expect(try b.run(["count"], prefix: asNobody).out == "2")
    }

    /// Issue 31, item 4: a store on a read-only mount (a backup, a
    /// snapshot) is read by every read command and written by none.
    @Test func aStoreOnAReadOnlyMountIsReadAndNeverWritten() throws {
        let disk = try SmallDisk(at: scratch.path("disk"), size: "4m")
        let store = disk.url.appendingPathComponent("store")
        let a = cli(store: store)
        for n in 1...5 { try #require(try a.run("add", "Task \(n)").status == 0) }
        let before = try exported(a)
        let files = try FileManager.default.contentsOfDirectory(atPath: store.path).sorted()
        try disk.remount(readOnly: true)
        #expect(try a.run("count").out == "5")
        let list = try a.run("list")
        #expect(list.status == 0 && list.stdout.contains("Task 3"), "\(list)")
        #expect(try exported(a) == before)
        let doctor = try a.run("doctor")
        #expect(doctor.status == 0 && doctor.stdout.contains("read only: Read-only file system"), "\(doctor)")
        for args in [["add", "x"], ["edit", String(before.keys.first!.prefix(8)), "--title", "y"]] {
            let r = try a.run(args)
            #expect(r.isOneClearLine, "\(args): \(r)")
            #expect(r.stderr.contains("cannot write the store") && r.stderr.contains("Read-only file system"), "\(args): \(r)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.path).sorted() == files)
        try disk.remount(readOnly: false)
        #expect(try exported(a) == before)
        #expect(try integrityCheck(store) == "ok")
    }

    /// A file system without working locks (NFS without its lock daemon, some
    /// FUSE mounts) answers ENOLCK to `flock` and `fcntl` locks: made here by
    /// a small preloaded library that does exactly that.
    @Test func aStoreOnAFileSystemWithoutLocksIsReportedByDoctor() throws {
        let source = scratch.path("nolocks.c"), library = scratch.path("nolocks.so")
        try Data(#"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <fcntl.h>
        #include <stdarg.h>
        #include <sys/file.h>
        int flock(int fd, int op) { (void)fd; (void)op; errno = ENOLCK; return -1; }
        static int is_lock(int cmd) {
            return cmd == F_SETLK || cmd == F_SETLKW || cmd == F_GETLK
                || cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW || cmd == F_OFD_GETLK;
        }
        #define WRAP(name) int name(int fd, int cmd, ...) { \
            va_list ap; va_start(ap, cmd); void *arg = va_arg(ap, void *); va_end(ap); \
            if (is_lock(cmd)) { errno = ENOLCK; return -1; } \
            static int (*real)(int, int, ...); \
            if (!real) real = (int (*)(int, int, ...))dlsym(RTLD_NEXT, #name); \
            return real(fd, cmd, arg); }
        WRAP(fcntl)
        WRAP(fcntl64)
        """#.utf8).write(to: source)
        // Any C compiler: the system's, or the clang that comes with Swift.
        var built = false
        for compiler in ["cc", "gcc", "clang"] where !built {
            let cc = Process()
            cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            cc.arguments = [compiler, "-shared", "-fPIC", "-o", library.path, source.path, "-ldl"]
            cc.standardError = FileHandle.nullDevice
            guard (try? cc.run()) != nil else { continue }
            cc.waitUntilExit()
            built = cc.terminationStatus == 0
        }
        try #require(built, "no C compiler (cc, gcc, clang) could build the lock-refusing library")

        let store = scratch.path("store")
        let plain = cli(store: store)
        try #require(try plain.run("add", "Made on a local disk").status == 0)
        let fine = try plain.run("doctor")
        #expect(fine.status == 0 && !fine.stdout.contains("file locks"), "\(fine)")

        var env = plain.environment
        env["LD_PRELOAD"] = library.path
        var noLocks = plain
        noLocks.environment = env
        let doctor = try noLocks.run("doctor")
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("problem: the file system of \(store.path) does not support file locks"), "\(doctor)")
        let add = try noLocks.run("add", "x")
        #expect(add.isOneClearLine && add.stderr.contains("does not support file locks"), "\(add)")
        #expect(try plain.run("count").out == "1")
    }

    // MARK: - SIGKILL

    /// A log grown past the compaction threshold (4 MiB and 4× its last
    /// snapshot) by one import made without the peer folder: the first cycle
    /// of `sync --watch` uploads it and rewrites the log. The watcher is
    /// killed as soon as the rewrite's temporary file appears (later in each
    /// round), and the store, the log and another replica must still agree.
    @Test func sigkillOfSyncWatchDuringCompactionLosesNothing() throws {
        var caught = 0
        for round in 1...5 where caught < 2 {
            let peer = scratch.path("peer\(round)")
            try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
            let a = cli(store: scratch.path("a\(round)"), peer: peer)
            let local = cli(store: scratch.path("a\(round)"))
            let ids = (0..<400).map { String(format: "5eed%04x-0000-4000-8000-%012x", round, $0) }
            func tasks(_ notes: (Int) -> String) -> Data {
                let objects = ids.enumerated().map { ["id": $1, "title": "Task \($0)", "notes": notes($0)] }
                return try! JSONSerialization.data(withJSONObject: objects)
            }
            let file = scratch.path("tasks\(round).json")
            try tasks { "small \($0)" }.write(to: file)
            try #require(try a.run("import", file.path).status == 0)
            try tasks { "round \(round) task \($0) " + String(repeating: "x", count: 11_000) }.write(to: file)
            try #require(try local.run("import", file.path).status == 0)
            let expected = try exported(local)

            let watcher = Process()
            watcher.executableURL = NextupProcess.binary
            watcher.arguments = ["sync", "--watch"]
            watcher.environment = a.environment
            watcher.standardOutput = FileHandle.nullDevice
            watcher.standardError = FileHandle.nullDevice
            try watcher.run()
            let delay = Double(round - 1) * 0.015
            var sawTemporary = false
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && watcher.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: peer.path)) ?? []
                if names.contains(where: { $0.hasPrefix(".nextup-") && $0.hasSuffix(".tmp") }) {
                    sawTemporary = true
                    if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                    break
                }
                usleep(300)
            }
            kill(watcher.processIdentifier, SIGKILL)
            watcher.waitUntilExit()
            let left = (try FileManager.default.contentsOfDirectory(atPath: peer.path)).filter { $0.hasSuffix(".tmp") }
            if sawTemporary && !left.isEmpty { caught += 1 }

            #expect(try integrityCheck(scratch.path("a\(round)")) == "ok")
            #expect(try exported(local) == expected, "round \(round): the store changed under a kill")
            let next = try a.run("sync")
            #expect(next.status == 0, "round \(round): \(next)")
            let leftovers = (try FileManager.default.contentsOfDirectory(atPath: peer.path)).filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty, "round \(round): \(leftovers)")
            let b = cli(store: scratch.path("b\(round)"), peer: peer)
            let fresh = try b.run("sync")
            #expect(fresh.status == 0 && !fresh.stdout.contains("skipped"), "round \(round): \(fresh)")
            #expect(try exported(b) == expected, "round \(round): another replica reads something else")
        }
        #expect(caught >= 1, "no kill landed in the middle of a compaction")
    }

    /// The TUI is killed while keys that write are still arriving. What it
    /// had committed (acknowledged) is in the store and reaches another
    /// replica through the next sync, even when the kill came between the
    /// commit and the upload.
    @Test func sigkillOfTheTUIMidWriteLosesNoAcknowledgedWrite() throws {
        let peer = scratch.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let a = cli(store: scratch.path("a"), peer: peer), b = cli(store: scratch.path("b"), peer: peer)
        var ids: [String] = []
        for n in 1...12 { ids.append(try a.run("add", "Row \(n)", "--importance", "2").out) }
        for round in 0..<3 {
            let tmux = try TUITmux(environment: a.environment)
            try tmux.run("exec \"\(NextupProcess.binary.path)\"")
            let started = try tmux.waitFor("Row 1")
            try #require(started, "the TUI did not start: \((try? tmux.screen()) ?? [])")
            let pid = pid_t(try tmux.display("#{pane_pid}")) ?? 0
            try #require(pid > 0)
            // One acknowledged write: the store shows it before the burst.
            let firstBefore = try a.run("list", "--json").stdout
            try tmux.keys("i")
            #expect(eventually(timeout: 15) { (try? a.run("list", "--json").stdout) != firstBefore }, "the TUI's write never reached the store")
            let acknowledged = try exported(cli(store: scratch.path("a")))
            // A burst of writes, killed part-way.
            try tmux.keys(contentsOf: Array(repeating: ["u", "j", "i"], count: 15).flatMap { $0 })
            usleep(useconds_t(20_000 * (round + 1)))
            kill(pid, SIGKILL)
            #expect(eventually(timeout: 15) { kill(pid, 0) != 0 }, "the TUI survived SIGKILL")
            #expect(try integrityCheck(scratch.path("a")) == "ok")
            let after = try exported(cli(store: scratch.path("a")))
            #expect(Set(after.keys) == Set(acknowledged.keys))
            // Every committed write reaches another replica.
            let sync = try a.run("sync")
            #expect(sync.status == 0, "\(sync)")
            let other = try b.run("sync")
            #expect(other.status == 0 && !other.stdout.contains("skipped"), "\(other)")
            #expect(try exported(b) == exported(a), "round \(round): a committed write did not reach the other replica")
        }
    }
}

private extension TUITmux {
    func keys(contentsOf names: [String]) throws { try tmux(["send-keys", "-t", "main"] + names) }
}
