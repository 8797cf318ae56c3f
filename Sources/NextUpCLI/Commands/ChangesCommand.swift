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
        let from = try since.map { try Self.parseSince($0, now: now) } ?? store.lastLooked()
        let arrived = try store.arrivedChanges(since: from)
        let text = try HistoryText(store: store)
        var order: [TaskID] = []
        var byTask: [TaskID: [TaskStore.ArrivedChange]] = [:]
        for change in arrived {
            if byTask[change.task] == nil { order.append(change.task) }
            byTask[change.task, default: []].append(change)
        }
        var lines: [TaskID: [TaskHistory.Line]] = [:]
        for id in order {
            let wanted = Set(byTask[id]!.map { "\($0.entry.field.rawValue)\u{0}\($0.entry.version.encoded)" })
            lines[id] = try store.history(of: id).filter { wanted.contains("\($0.entry.field.rawValue)\u{0}\($0.entry.version.encoded)") }
        }
        if json {
            let tasks = order.map { id in
                ChangedTask(id: id.rawValue, title: byTask[id]![0].title, changes: lines[id]!.map { line in
                    Change(field: line.entry.field.rawValue, old: line.old ?? .null, new: line.entry.value,
                           time: Timestamps.rfc3339(line.entry.version.timestamp.millis), machine: text.machine(line.entry.version.replica),
                           origin: line.entry.note?.origin?.rawValue ?? "merge",
                           lost_race: line.lostTo.map { text.machine($0.replica) })
                })
            }
            print(try HistoryText.encode(Document(since: from > 0 ? Timestamps.rfc3339(from) : nil, tasks: tasks)))
        } else if arrived.isEmpty {
            print(from > 0 ? "nothing new from other machines since \(HistoryText.time(from))" : "nothing from other machines yet")
        } else {
            let count = arrived.count
            print("from other machines\(from > 0 ? " since \(HistoryText.time(from))" : ""): \(count) change\(count == 1 ? "" : "s") on \(order.count) task\(order.count == 1 ? "" : "s")")
            for id in order {
                print("  \(id.short) \(Sanitizer.visible(byTask[id]![0].title))")
                for line in lines[id]! {
                    var out = "    \(HistoryText.time(line.entry.version.timestamp.millis))  \(text.machine(line.entry.version.replica))  "
                        + TaskHistory.words(line.entry.field, old: line.old, new: line.entry.value)
                    if let winner = line.lostTo { out += "  — lost a race with \(text.machine(winner.replica))'s edit" }
                    print(out)
                }
            }
        }
        if since == nil, let newest = arrived.map(\.received).max() { try store.markLooked(through: newest) }
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

    struct ChangedTask: Encodable {
        let id: String
        let title: String
        let changes: [Change]
    }

    struct Change: Encodable {
        let field: String
        let old: FieldValue
        let new: FieldValue
        let time: String
        let machine: String
        let origin: String
        let lost_race: String?

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(field, forKey: .field)
            try c.encode(old, forKey: .old)
            try c.encode(new, forKey: .new)
            try c.encode(time, forKey: .time)
            try c.encode(machine, forKey: .machine)
            try c.encode(origin, forKey: .origin)
            try c.encode(lost_race, forKey: .lost_race)
        }

        enum Key: String, CodingKey { case field, old, new, time, machine, origin, lost_race }
    }
}
