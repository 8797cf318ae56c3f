import Foundation
import Testing

/// Crash safety (issue 3, "Done means"): a real `nextup sync` killed with
/// SIGKILL at random moments — during uploads, downloads, merges — at least 50
/// times, on two replicas in turn. Each kill must leave a store that opens and
/// a peer folder that the next syncs complete, with nothing lost.
@Suite struct SyncCrashTests {
    let scratch = Scratch()

    func nextup(_ store: String, withPeer: Bool) -> NextupProcess {
        var extra = ["NEXTUP_HOME": scratch.path(store).path]
        if withPeer { extra["NEXTUP_PEER"] = scratch.path("peer").path }
        return NextupProcess(home: scratch.url, extra: extra)
    }

    func exported(_ process: NextupProcess) throws -> [String: [String: String]] {
        let result = try process.run("export")
        #expect(result.status == 0, "\(result)")
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: objects.map { ($0["id"] as! String, $0.mapValues(canonicalText)) })
    }

    @Test func syncKilledAtRandomMomentsLosesNothing() throws {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let wantedKills = ProcessInfo.processInfo.environment["NEXTUP_SYNC_KILLS"].flatMap(Int.init) ?? 50
        let sides = ["a", "b"]
        // What must survive: every task's title, A's last category for its
        // tasks, B's last urgency for its tasks.
        var titles: [String: String] = [:]
        var categories: [String: String] = [:]
        var urgencies: [String: String] = [:]
        var own: [String: [String]] = ["a": [], "b": []]
        var kills = 0
        var round = 0
        var delays: [Int] = []
        while kills < wantedKills && round < wantedKills * 4 {
            let side = sides[round % 2]
            let local = nextup(side, withPeer: false)
            // New tasks, pending upload.
            var batch: [[String: Any]] = []
            for k in 0..<150 {
                let id = UUID().uuidString.lowercased()
                titles[id] = "\(side)-\(round)-\(k)"
                own[side]!.append(id)
                batch.append(["id": id, "title": titles[id]!])
            }
            let file = scratch.path("import-\(round).json")
            try JSONSerialization.data(withJSONObject: batch).write(to: file)
            let imported = try local.run("import", file.path)
            #expect(imported.status == 0, "\(imported)")
            // An edit of an older task of this side.
            if let id = own[side]!.randomElement() {
                if side == "a" {
                    let value = ["Admin", "Learning", "Deep Work"].randomElement()!
                    #expect(try local.run("edit", id, "--category", value).status == 0)
                    categories[id] = value
                } else {
                    let value = ["urgent", "not-urgent"].randomElement()!
                    #expect(try local.run("edit", id, "--urgency", value).status == 0)
                    urgencies[id] = value
                }
            }
            // A sync, killed at a random moment.
            let sync = Process()
            sync.executableURL = NextupProcess.binary
            sync.arguments = ["sync"]
            sync.environment = nextup(side, withPeer: true).environment
            sync.standardOutput = FileHandle.nullDevice
            sync.standardError = FileHandle.nullDevice
            let delay = Int.random(in: 0...90_000)
            delays.append(delay)
            try sync.run()
            usleep(useconds_t(delay))
            kill(sync.processIdentifier, SIGKILL)
            sync.waitUntilExit()
            if sync.terminationReason == .uncaughtSignal { kills += 1 }
            // The store opens and answers after every kill.
            #expect(try local.run("count").status == 0)
            round += 1
        }
        #expect(kills >= wantedKills, "only \(kills) of \(round) syncs were still running when killed (delays µs: \(delays.prefix(20)))")

        // The next syncs finish, quietly and completely.
        for _ in 0..<2 {
            for side in sides {
                let result = try nextup(side, withPeer: true).run("sync")
                #expect(result.status == 0, "\(result)")
                #expect(!result.stdout.contains("skipped:"), "\(result.stdout)")
            }
        }
        let a = try exported(nextup("a", withPeer: false))
        let b = try exported(nextup("b", withPeer: false))
        #expect(a == b)
        #expect(Set(a.keys) == Set(titles.keys), "lost \(Set(titles.keys).subtracting(a.keys).count) tasks")
        for (id, title) in titles { #expect(a[id]?["title"] == title) }
        for (id, category) in categories { #expect(a[id]?["category"] == category) }
        for (id, urgency) in urgencies { #expect(a[id]?["urgency"] == urgency) }
        // The logs alone rebuild everything: a fresh replica gets the same.
        let fresh = try nextup("c", withPeer: true).run("sync")
        #expect(fresh.status == 0 && !fresh.stdout.contains("skipped:"), "\(fresh)")
        #expect(try exported(nextup("c", withPeer: false)) == a)
        for side in sides { #expect(try nextup(side, withPeer: false).run("doctor").status == 0) }
    }
}
