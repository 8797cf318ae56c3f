import Foundation
import Testing

/// Issue 13: `list` filters and sorts as the TUI does (the same filter
/// language, Core's `ListFilter`), and `--limit N`.
@Suite struct ListFilterCLITests {
    let scratch = Scratch()
    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    func titles(_ args: String...) throws -> [String] { try titles(args) }

    func titles(_ args: [String]) throws -> [String] {
        let r = try nextup.run(["list", "--json"] + args)
        #expect(r.status == 0, "\(r)")
        let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        return list.map { $0["title"] as! String }
    }

    @Test func filterSortAndLimit() throws {
        _ = try nextup.run("add", "Essay", "--category", "Deep Work", "--urgency", "urgent", "--due", "2030-05-01")
        _ = try nextup.run("add", "Rent", "--category", "Admin", "--urgency", "urgent", "--due", "today", "--duration", "10m")
        _ = try nextup.run("add", "Taxes", "--category", "Admin", "--due", "2020-01-01", "--duration", "3h")
        _ = try nextup.run("add", "Bank", "--category", "Admin", "--next")
        #expect(try titles("--filter", "cat:Admin is:urgent") == ["Rent"])
        #expect(try titles("--filter", "cat:\"deep work\"") == ["Essay"])
        #expect(try titles("--filter", "due:overdue") == ["Taxes"])
        #expect(try titles("--filter", "due:today") == ["Rent"])
        #expect(try titles("--filter", "is:next") == ["Bank"])
        #expect(try titles("--filter", "ta") == ["Taxes"])
        // Next Up first in its order, then the Backlog by the sort.
        #expect(try titles("--sort", "due") == ["Bank", "Taxes", "Rent", "Essay"])
        #expect(try titles("--sort", "duration") == ["Bank", "Rent", "Taxes", "Essay"])
        #expect(try titles("--sort", "due", "--limit", "2") == ["Bank", "Taxes"])
        #expect(try titles("--filter", "cat:Admin", "--sort", "due", "--limit", "1") == ["Bank"])
    }

    /// The human table (read and written a task at a time) lists what
    /// `--json` lists, in the same order, for every way of narrowing it.
    @Test func theTableListsWhatJSONLists() throws {
        _ = try nextup.run("add", "Essay", "--category", "Deep Work", "--urgency", "urgent", "--due", "2030-05-01", "--tag", "pen")
        _ = try nextup.run("add", "Rent", "--category", "Admin", "--urgency", "urgent", "--importance", "2", "--duration", "10m")
        _ = try nextup.run("add", "Taxes", "--category", "Admin", "--due", "2020-01-01", "--duration", "3h", "--tag", "pen")
        _ = try nextup.run("add", "Bank", "--category", "Admin", "--next")
        for args in [[], ["--sort", "due"], ["--limit", "2"], ["--tbd"], ["--category", "admin"], ["--tag", "PEN"],
                     ["--filter", "cat:Admin", "--category", "Deep Work"], ["--filter", "+pen", "--tag", "pen", "--sort", "created"],
                     ["--filter", "is:urgent", "--category", "admin"]] {
            let want = try titles(args)
            let r = try nextup.run(["list"] + args)
            #expect(r.status == 0, "\(r)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            if want.isEmpty {
                #expect(lines == ["no tasks"], "\(args)")
                continue
            }
            #expect(lines.first?.hasSuffix("TITLE") == true, "\(args)")
            #expect(lines.count == want.count + 1, "\(args): \(lines)")
            for (line, title) in zip(lines.dropFirst(), want) { #expect(line.hasSuffix("  " + title), "\(args): \(line)") }
        }
    }

    @Test func badFiltersSortsAndLimitsAreOneLineUsageErrors() throws {
        let unknown = try nextup.run("list", "--filter", "colour:red")
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.stderr.contains("unknown filter 'colour:'"), "\(unknown)")
        let sort = try nextup.run("list", "--sort", "colour")
        #expect(sort.status == 64, "\(sort)")
        let limit = try nextup.run("list", "--limit", "0")
        #expect(limit.status == 64 && limit.stderr.contains("--limit must be 1 or more"), "\(limit)")
    }
}
