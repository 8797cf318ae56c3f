import Foundation
import NextUpCore
import NextUpStore
import Testing

/// Next Up order set from the shell (`edit --before/--after`) and with `J`/`K`
/// in the TUI, on keys tied by two replicas through a real peer folder; and
/// the command line and the TUI filter agreeing about a category.
@Suite struct NextUpOrderEndToEndTests {
    let scratch = Scratch()

    func nextup(_ store: String, peer: Bool = true) -> NextupProcess {
        var extra = ["NEXTUP_HOME": scratch.path(store).path]
        if peer { extra["NEXTUP_PEER"] = scratch.path("peer").path }
        return NextupProcess(home: scratch.url, extra: extra)
    }

    /// Store `a` after each replica put three tasks in Next Up while apart and
    /// both synced: the replicas made the same keys, so they tie in pairs.
    func tiedStore() throws -> NextupProcess {
        try FileManager.default.createDirectory(at: scratch.path("peer"), withIntermediateDirectories: true)
        let a = nextup("a"), b = nextup("b")
        for name in ["one", "two", "three"] {
            #expect(try a.run("add", "A \(name)", "--next").status == 0)
            #expect(try b.run("add", "B \(name)", "--next").status == 0)
        }
        for replica in [a, b, a] {
            let sync = try replica.run("sync")
            #expect(sync.status == 0, "\(sync)")
        }
        let store = try TaskStore.open(StoreLocation(folder: scratch.path("a")))
        let keys = try store.nextUp().map { $0.nextUpPosition! }
        #expect(keys.count == 6 && Set(keys).count == 3, "tied keys after the sync: \(keys)")
        return nextup("a", peer: false)
    }

    func order(_ cli: NextupProcess) throws -> [String] {
        let data = Data(try cli.run("next", "--json").stdout.utf8)
        return ((try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func editBeforeAndAfterMoveExactlyOnePlaceOnTiedKeys() throws {
        let cli = try tiedStore()
        let start = try order(cli)
        let moving = start[0]
        for step in 1..<start.count {
            let now = try order(cli)
            let r = try cli.run("edit", String(moving.prefix(8)), "--after", String(now[step].prefix(6)))
            #expect(r.status == 0 && r.stdout.contains("moved in Next Up"), "\(r)")
            var want = now; want.swapAt(step - 1, step)
            #expect(try order(cli) == want, "--after, step \(step)")
        }
        for step in stride(from: start.count - 1, to: 0, by: -1) {
            let now = try order(cli)
            let r = try cli.run("edit", moving, "--before", now[step - 1])
            #expect(r.status == 0, "\(r)")
            var want = now; want.swapAt(step - 1, step)
            #expect(try order(cli) == want, "--before, step \(step)")
        }
        let same = try cli.run("edit", moving, "--before", start[1])
        #expect(same.status == 0 && same.stdout.hasPrefix("no change") && same.stdout.contains("already stands there"), "\(same)")
    }

    @Test func editBeforeAndAfterRefuseInOneLine() throws {
        let cli = nextup("solo", peer: false)
        let a = try cli.run("add", "Alpha", "--next").out
        let b = try cli.run("add", "Bravo", "--next").out
        let backlog = try cli.run("add", "Charlie").out
        let done = try cli.run("add", "Delta", "--next").out
        let gone = try cli.run("add", "Echo", "--next").out
        #expect(try cli.run("done", done).status == 0)
        #expect(try cli.run("delete", gone).status == 0)
        let before = try order(cli)
        for (args, words) in [
            (["edit", a, "--before", b, "--after", b], "choose one of --before and --after"),
            (["edit", a, "--after", backlog], "“Charlie” is in the Backlog, not in Next Up"),
            (["edit", backlog, "--after", a], "“Charlie” is in the Backlog, not in Next Up"),
            (["edit", a, "--before", done], "“Delta” is done, not in Next Up"),
            (["edit", a, "--before", gone], "“Echo” is deleted, not in Next Up"),
            (["edit", done, "--after", a], "“Delta” is done, not in Next Up"),
            (["edit", a, "--after", a], "before or after itself"),
            (["edit", a, "--after", "ffffffff"], "no task matches 'ffffffff'"),
            (["edit", a, "--next", "--after", b], "without --next/--no-next"),
        ] as [([String], String)] {
            let r = try cli.run(args)
            #expect(r.status != 0, "\(args): \(r)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(words), "\(args): \(r)")
        }
        #expect(try order(cli) == before, "nothing moved")
        #expect(try cli.run("edit", b, "--before", a).status == 0)
        #expect(try order(cli) == [b, a])
    }

    @Test func jAndKInTheTUIMoveExactlyOnePlaceOnTiedKeys() throws {
        let cli = try tiedStore()
        let start = try order(cli)
        // B's tasks are seen: no "while you were away" takes the first key.
        #expect(try cli.run("changes").status == 0)
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        #expect(try tmux.waitFor("Backlog ·"), "the TUI should open")
        try tmux.keys("Tab")
        for step in 1..<start.count {
            let now = try order(cli)
            try tmux.keys("J")
            var want = now; want.swapAt(step - 1, step)
            let moved = try eventually { try order(cli) == want }
            let got = try order(cli)
            #expect(moved, "J press \(step): \(got) should be \(want)")
        }
        for step in stride(from: start.count - 1, to: 0, by: -1) {
            let now = try order(cli)
            try tmux.keys("K")
            var want = now; want.swapAt(step - 1, step)
            #expect(try eventually { try order(cli) == want }, "K press \(step)")
        }
        #expect(try order(cli) == start)
        try tmux.keys("q")
    }

    @Test func listCategoryAndTheTUIFilterFindTheSameTasks() throws {
        let cli = nextup("cats", peer: false)
        for (title, category) in [("Lire Proust", "Études"), ("Examen final", "ÉTUDES"), ("Sans accent", "Etudes"), ("Autre chose", "Admin")] {
            #expect(try cli.run("add", title, "--category", category).status == 0)
        }
        let listed = try cli.run("list", "--category", "études", "--json")
        #expect(listed.status == 0, "\(listed)")
        let titles = ((try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8))) as? [[String: Any]] ?? [])
            .compactMap { $0["title"] as? String }
        // Matching ignores case and accents: `études` finds `Etudes` too.
        #expect(Set(titles) == ["Lire Proust", "Examen final", "Sans accent"])
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        #expect(try tmux.waitFor("Autre chose"), "the TUI should open with every task")
        try tmux.keys("/"); try tmux.type("cat:études"); try tmux.keys("Enter")
        let filtered = try tmux.waitForScreen { !$0.contains { $0.contains("Autre chose") } }
        #expect(filtered.ok, "\(filtered.screen.joined(separator: "\n"))")
        let shown = ["Lire Proust", "Examen final", "Sans accent", "Autre chose"].filter { t in filtered.screen.contains { $0.contains(t) } }
        #expect(Set(shown) == Set(titles), "\(filtered.screen.joined(separator: "\n"))")
        try tmux.keys("q")
    }
}
