import Foundation
import Testing

/// A TUI open while another process writes thousands of tasks in one
/// transaction (more than the lists are brought up to date with, so they are
/// read again, in slices between keys): the screen comes to count every
/// task, and each key pressed meanwhile acts on the row the screen showed
/// under the cursor.
@Suite struct TUILargeChangeTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    @Test func keysPressedWhileAnotherProcessWritesThousandsOfTasksActOnTheRowsShown() throws {
        func records(_ range: Range<Int>, _ title: String) -> String {
            range.map { i in
                #"{"id": "6301bbfc-a0c5-454e-8ff9-\#(String(format: "%012x", i))", "title": "\#(title) \#(String(format: "%05d", i))"}"#
            }.joined(separator: ",\n")
        }
        let own = 40, n = 6_000
        try ("[" + records(0..<own, "Own") + "]").write(to: scratch.path("own.json"), atomically: true, encoding: .utf8)
        try ("[" + records(own..<own + n, "Bulk") + "]").write(to: scratch.path("bulk.json"), atomically: true, encoding: .utf8)
        #expect(try cli.run("import", scratch.path("own.json").path).status == 0)

        let tmux = try TUITmux(environment: cli.environment, width: 100, height: 30)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        #expect(try tmux.waitForScreen { Self.counts($0) == [0, own] }.ok)

        let importer = DispatchGroup()
        nonisolated(unsafe) var imported: NextupProcess.Result?
        importer.enter()
        let other = cli, bulk = scratch.path("bulk.json").path
        DispatchQueue.global().async {
            imported = try? other.run("import", bulk)
            importer.leave()
        }
        // Until every task is counted (or 20 are done): the title under the
        // cursor as the screen shows it, `x`, the screen showing it done,
        // `j`, the cursor on the next row.
        var done: [String] = []
        var screen = try tmux.screen()
        while done.count < 20, !(importer.wait(timeout: .now()) == .success && Self.counts(screen) == [0, own + n - done.count]) {
            guard let title = Self.selected(screen), !title.hasPrefix("✓") else {
                Issue.record("the cursor is not on an open task:\n\(screen.joined(separator: "\n"))")
                break
            }
            try tmux.keys("x")
            #expect(try tmux.waitForScreen { Self.selected($0) == "✓ \(title)" }.ok, "\(title) shown done")
            done.append(title)
            try tmux.keys("j")
            let moved = try tmux.waitForScreen { Self.selected($0).map { !$0.hasPrefix("✓") } ?? false }
            #expect(moved.ok, "the cursor moved on:\n\(moved.screen.joined(separator: "\n"))")
            screen = moved.screen
        }
        #expect(importer.wait(timeout: .now() + 120) == .success)
        #expect(imported?.status == 0, "\(String(describing: imported))")
        let full = try tmux.waitForScreen { Self.counts($0) == [0, own + n - done.count] }
        #expect(full.ok, "every open task counted:\n\(full.screen.joined(separator: "\n"))")
        try tmux.keys("q")

        #expect(try cli.run("count").out == "\(own + n - done.count)")
        let export = try cli.run("export")
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
        let doneTitles = tasks.filter { $0["done"] as? Bool == true }.compactMap { $0["title"] as? String }
        #expect(doneTitles.sorted() == done.sorted(), "the tasks done are the ones the cursor was on")
    }

    /// The title bar's counts: Next Up's and the Backlog's.
    static func counts(_ screen: [String]) -> [Int]? {
        guard let bar = screen.first, let range = bar.range(of: #"Next Up \d+ · Backlog \d+"#, options: .regularExpression) else { return nil }
        let numbers = bar[range].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count == 2 ? numbers : nil
    }

    /// The title of the row under the Backlog's cursor (`✓ ` first when done).
    static func selected(_ screen: [String]) -> String? {
        guard let row = screen.first(where: { $0.hasPrefix("▸") && !$0.contains("Backlog ·") }) else { return nil }
        return row.dropFirst(2).components(separatedBy: "  ")[0].trimmingCharacters(in: .whitespaces)
    }
}
