import Foundation
import NextUpBridge
import NextUpConfig
import NextUpCore
import NextUpStore
import NextUpSync

/// The history of a task in words (`show --history`, `changes`) and as JSON.
struct HistoryText {
    /// Machine names by replica (``MachineNames``), the phone's included.
    let names: [ReplicaID: String]

    init(store: TaskStore) throws {
        self.names = try MachineNames.known(store).merging(ReplicaID.calendarNames) { _, phone in phone }
    }

    func machine(_ replica: ReplicaID) -> String { MachineNames.label(replica, in: names) }

    /// `YYYY-MM-DD HH:MM`, local time.
    static func time(_ millis: Int64) -> String {
        "\(LocalTime.today(atMillis: millis)) \(LocalTime.clock(atMillis: millis).prefix(5))"
    }

    /// The human lines of a task's history, newest first.
    func lines(_ history: [TaskHistory.Line]) -> [String] {
        let current = TaskHistory.currentVersions(history)
        return history.map { line in
            let entry = line.entry
            let handle = TaskHistory.handle(of: entry, current: current[entry.field] ?? entry.version)
            var text = "\(handle)  \(Self.time(entry.version.timestamp.millis))  \(machine(entry.version.replica)) (\(entry.note?.origin?.rawValue ?? "merge"))  "
                + TaskHistory.words(entry.field, old: line.old, new: entry.value)
            if let winner = line.lostTo { text += "  — lost a race with \(machine(winner.replica))'s edit" }
            return text
        }
    }

    /// The JSON of a task's history: an object with the task's id and title
    /// and `history`, newest first.
    func json(_ task: TaskItem, _ history: [TaskHistory.Line]) throws -> String {
        try Self.encode(Document(id: task.id.rawValue, title: task.title, history: entries(history, current: TaskHistory.currentVersions(history))))
    }

    /// History lines as ``Entry``s; `current` holds each field's newest
    /// version (``TaskHistory/currentVersions(_:)`` of the task's whole history).
    func entries(_ lines: [TaskHistory.Line], current: [TaskField: Version]) -> [Entry] {
        lines.map { line in
            Entry(entry: TaskHistory.handle(of: line.entry, current: current[line.entry.field] ?? line.entry.version),
                  field: line.entry.field.rawValue, old: line.old, new: line.entry.value,
                  time: Timestamps.rfc3339(line.entry.version.timestamp.millis),
                  machine: machine(line.entry.version.replica), replica: line.entry.version.replica.rawValue,
                  origin: line.entry.note?.origin?.rawValue ?? "merge", version: line.entry.version.encoded,
                  current: line.isCurrent,
                  lost_to: line.lostTo.map { Winner(machine: machine($0.replica), version: $0.encoded) })
        }
    }

    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    struct Document: Encodable {
        let id: String
        let title: String
        let history: [Entry]
    }

    struct Winner: Encodable {
        let machine: String
        let version: String
    }

    /// One change of a task's history, the one JSON shape of a change
    /// (`show --history --json`'s entries, `changes --json`'s changes).
    struct Entry: Encodable {
        let entry: String
        let field: String
        let old: FieldValue?
        let new: FieldValue
        let time: String
        let machine: String
        let replica: String
        let origin: String
        let version: String
        let current: Bool
        let lost_to: Winner?

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(entry, forKey: .entry)
            try c.encode(field, forKey: .field)
            try c.encode(old ?? .null, forKey: .old)
            try c.encode(new, forKey: .new)
            try c.encode(time, forKey: .time)
            try c.encode(machine, forKey: .machine)
            try c.encode(replica, forKey: .replica)
            try c.encode(origin, forKey: .origin)
            try c.encode(version, forKey: .version)
            try c.encode(current, forKey: .current)
            try c.encode(lost_to, forKey: .lost_to)
        }

        enum Key: String, CodingKey { case entry, field, old, new, time, machine, replica, origin, version, current, lost_to }
    }
}
