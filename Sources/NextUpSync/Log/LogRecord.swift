import NextUpCore

/// One line of a log after the header: one or more field changes of one task.
///
/// On the wire: `{"task":"<id>","set":{"<field>":[<value>,"<version>"],…},"crc":"…"}`
/// with fields in ``TaskField`` order. A version written by the file's own
/// replica is shortened to its 16 hex digits; any other carries `@<replica>`.
public struct LogRecord: Hashable, Sendable {
    public let task: TaskID
    /// The changes, all of ``task``; at most one per field.
    public let changes: [FieldChange]

    /// - Precondition: every change is of `task`.
    public init(task: TaskID, changes: [FieldChange]) {
        precondition(changes.allSatisfy { $0.task == task }, "a log record holds changes of one task")
        self.task = task
        self.changes = changes
    }

    /// Groups changes by task, keeping for each field the greatest version, in
    /// the order tasks first appear. Used to turn an outbox into log lines.
    public static func grouping<S: Sequence>(_ changes: S) -> [LogRecord] where S.Element == FieldChange {
        var order: [TaskID] = []
        var byTask: [TaskID: [TaskField: FieldChange]] = [:]
        for change in changes {
            if byTask[change.task] == nil { order.append(change.task); byTask[change.task] = [:] }
            if let existing = byTask[change.task]![change.field], existing.version >= change.version { continue }
            byTask[change.task]![change.field] = change
        }
        return order.map { id in
            LogRecord(task: id, changes: byTask[id]!.values.sorted { $0.field < $1.field })
        }
    }

    /// The record as written in the log of `owner`: one line when it fits
    /// ``LogFormat/maxLineLength``, else its changes spread over several
    /// lines (halves, recursively), so that a reader never skips a line this
    /// code wrote. Every accepted value fits one line on its own
    /// (``TaskText``'s byte limits, escaped six-fold at worst).
    public func encodedLines(owner: ReplicaID, maxLength: Int = LogFormat.maxLineLength) -> [UInt8] {
        let line = encodedLine(owner: owner)
        guard line.count - 1 > maxLength, changes.count > 1 else { return line }
        let half = changes.count / 2
        return LogRecord(task: task, changes: Array(changes.prefix(half))).encodedLines(owner: owner, maxLength: maxLength)
            + LogRecord(task: task, changes: Array(changes.dropFirst(half))).encodedLines(owner: owner, maxLength: maxLength)
    }

    /// The record as one self-checking line, with its newline, as written in
    /// the log of `owner`.
    public func encodedLine(owner: ReplicaID) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + changes.count * 48)
        JSONText.appendRaw("{\"task\":", to: &out)
        JSONText.appendString(task.rawValue, to: &out)
        JSONText.appendRaw(",\"set\":{", to: &out)
        for (index, change) in changes.sorted(by: { $0.field < $1.field }).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendString(change.field.rawValue, to: &out)
            out.append(contentsOf: Array(":[".utf8))
            JSONText.appendValue(change.value, to: &out)
            out.append(UInt8(ascii: ","))
            let version = change.version.encoded
            JSONText.appendString(change.version.replica == owner ? String(version.prefix(16)) : version, to: &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        JSONText.sealWithChecksum(&out)
        out.append(0x0A)
        return out
    }
}
