import ArgumentParser
import Foundation
import NextUpConfig
import NextUpCore
import NextUpStore

/// `nextup changes`: what other machines (and the phone) changed that
/// arrived here since this machine last looked, by task; looking moves the
/// mark (not with `--since`, which only reads).
struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "changes",
        abstract: "What other machines and the phone changed since you last looked.")

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Since this long ago (30m, 2h, 3d) or this date (YYYY-MM-DD), instead of since you last looked; the mark stays.", valueName: "WHEN"))
    var since: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try CommandContext.open(global)
        let store = context.store
        let now = LocalTime.nowMillis
        let arrivals = try store.arrivals(since: since.map { try Self.parseSince($0, now: now) })
        let from = arrivals.since
        let text = try HistoryText(store: store)
        if json {
            let tasks = arrivals.tasks.map { task in
                ChangedTask(id: task.id.rawValue, title: task.title, changes: text.entries(task.lines, current: task.current))
            }
            print(try HistoryText.encode(Document(since: from > 0 ? Timestamps.rfc3339(from) : nil, tasks: tasks)))
        } else if arrivals.tasks.isEmpty {
            print(from > 0 ? "nothing new from other machines since \(HistoryText.time(from))" : "nothing from other machines yet")
        } else {
            let count = arrivals.count, tasks = arrivals.tasks.count
            print("from other machines\(from > 0 ? " since \(HistoryText.time(from))" : ""): \(count) change\(count == 1 ? "" : "s") on \(tasks) task\(tasks == 1 ? "" : "s")")
            for task in arrivals.tasks {
                print("  \(task.id.short) \(Sanitizer.visible(task.title))")
                for line in task.lines {
                    var out = "    \(HistoryText.time(line.entry.version.timestamp.millis))  \(text.machine(line.entry.version.replica))  "
                        + TaskHistory.words(line.entry.field, old: line.old, new: line.entry.value)
                    if let winner = line.lostTo { out += "  — lost a race with \(text.machine(winner.replica))'s edit" }
                    print(out)
                }
            }
            if arrivals.cut { print("  … and more: only the first \(count) are listed (nextup show ID --history has every change of a task)") }
        }
        if since == nil { try store.markSeen(arrivals) }
    }

    /// `30m`, `2h`, `3d`, `1w` ago, or a date (its local midnight).
    static func parseSince(_ text: String, now: Int64) throws -> Int64 {
        let units: [Character: Int64] = ["m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 7 * 86_400_000]
        if let unit = text.last.flatMap({ units[$0] }), let n = Int64(text.dropLast()), n >= 0, n < 100_000 { return now - n * unit }
        if let date = try? DueDate.parse(text, today: LocalTime.today(atMillis: now)) {
            let midnight = date.epochDay * 86_400_000
            return midnight - Int64(LocalTime.utcOffsetSeconds(atMillis: midnight)) * 1000
        }
        throw CLIError("--since takes 30m, 2h, 3d, 1w or a date like 2026-11-20, not '\(Sanitizer.visible(text))'")
    }

    struct Document: Encodable {
        let since: String?
        let tasks: [ChangedTask]
    }

    /// A task and its changes: each change in the one shape of a history
    /// entry (``HistoryText/Entry``, as `show --history --json` writes it).
    struct ChangedTask: Encodable {
        let id: String
        let title: String
        let changes: [HistoryText.Entry]
    }
}
