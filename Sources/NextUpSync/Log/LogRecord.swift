import NextUpCore

/// One line of a log after the header: one or more field changes of one task.
///
/// On the wire: `{"task":"<id>","set":{"<field>":[<value>,"<version>"],…},"crc":"…"}`
/// with fields in ``TaskField`` order. A version written by the file's own
/// replica is shortened to its 16 hex digits; any other carries `@<replica>`.
///
/// Members for the history, each written only when it has something to say
/// (readers before them skip members they do not know):
/// `"seen":{"<field>":"<version>"|"",…}` (what the writer held for the field:
/// ``ChangeNote/seen``, `""` for nothing), `"via":"<origin>"` (every change's
/// ``ChangeNote/origin``, when they share one) or `"via":{"<field>":"<origin>",…}`,
/// `"machine":"<name>"` (the writer's machine name, from this line on), and
/// `"merged":{…},"at":<ms>` (a ``Delivery`` mark).
public struct LogRecord: Hashable, Sendable {
    public let task: TaskID
    /// The changes, all of ``task``; at most one per field.
    public let changes: [FieldChange]
    /// The writing machine's name, when this line says it.
    public var machine: String?
    /// How far the writer had merged other machines' logs, when this line says it.
    public var delivery: Delivery?

    /// A delivery mark: for each other replica, the newest of that replica's
    /// own versions (physical ms) the writer had merged from its log, and when
    /// the writer said so (its clock, ms). Wire: `"merged":{"<replica>":<ms>,…},"at":<ms>`.
    public struct Delivery: Hashable, Sendable {
        public var merged: [ReplicaID: Int64]
        public var at: Int64
        public init(merged: [ReplicaID: Int64], at: Int64) {
            self.merged = merged
            self.at = at
        }
    }

    /// - Precondition: every change is of `task`.
    public init(task: TaskID, changes: [FieldChange]) {
        precondition(changes.allSatisfy { $0.task == task }, "a log record holds changes of one task")
        self.task = task
        self.changes = changes
    }

    /// Groups changes by task, in the order tasks first appear, each field
    /// once per record: a field's greatest version in the first records; an
    /// older one (a carried phone change a later one replaced: the outbox
    /// publishes it all the same) in records after them. A change named twice
    /// is kept once. Used to turn an outbox into log lines.
    public static func grouping<S: Sequence>(_ changes: S) -> [LogRecord] where S.Element == FieldChange {
        var order: [TaskID] = []
        var byTask: [TaskID: [TaskField: FieldChange]] = [:]
        var older: [FieldChange] = []
        for change in changes {
            if byTask[change.task] == nil { order.append(change.task); byTask[change.task] = [:] }
            if let existing = byTask[change.task]![change.field] {
                if existing.version == change.version { continue }
                if existing.version > change.version { older.append(change); continue }
                older.append(existing)
            }
            byTask[change.task]![change.field] = change
        }
        let records = order.map { id in
            LogRecord(task: id, changes: byTask[id]!.values.sorted { $0.field < $1.field })
        }
        return older.isEmpty ? records : records + grouping(older)
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
        var first = LogRecord(task: task, changes: Array(changes.prefix(half)))
        first.machine = machine
        first.delivery = delivery
        return first.encodedLines(owner: owner, maxLength: maxLength)
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
        let sorted = changes.sorted(by: { $0.field < $1.field })
        for (index, change) in sorted.enumerated() {
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
        appendNotes(sorted, to: &out)
        JSONText.sealWithChecksum(&out)
        out.append(0x0A)
        return out
    }

    /// Appends the history members (`seen`, `via`, `machine`, `merged` and `at`) that have something to say.
    private func appendNotes(_ sorted: [FieldChange], to out: inout [UInt8]) {
        let seen = sorted.compactMap { change in change.note?.seen.map { (change.field, $0) } }
        if !seen.isEmpty {
            JSONText.appendRaw(",\"seen\":{", to: &out)
            for (index, (field, held)) in seen.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendString(field.rawValue, to: &out)
                out.append(UInt8(ascii: ":"))
                switch held {
                case .nothing: JSONText.appendString("", to: &out)
                case .version(let version): JSONText.appendString(version.encoded, to: &out)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
        let origins = sorted.compactMap { change in change.note?.origin.map { (change.field, $0) } }
        if let first = origins.first {
            JSONText.appendRaw(",\"via\":", to: &out)
            if origins.count == sorted.count && origins.allSatisfy({ $0.1 == first.1 }) {
                JSONText.appendString(first.1.rawValue, to: &out)
            } else {
                out.append(UInt8(ascii: "{"))
                for (index, (field, origin)) in origins.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    JSONText.appendString(field.rawValue, to: &out)
                    out.append(UInt8(ascii: ":"))
                    JSONText.appendString(origin.rawValue, to: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
        }
        if let machine {
            JSONText.appendRaw(",\"machine\":", to: &out)
            JSONText.appendString(machine, to: &out)
        }
        if let delivery {
            JSONText.appendRaw(",\"merged\":{", to: &out)
            for (index, (replica, through)) in delivery.merged.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendString(replica.rawValue, to: &out)
                JSONText.appendRaw(":\(through)", to: &out)
            }
            JSONText.appendRaw("},\"at\":\(delivery.at)", to: &out)
        }
    }
}
