import Glibc
import NextUpCore

/// The text form of a set of field versions, as the store keeps it: the task
/// row's `versions` column and each outbox entry (schema v5).
///
/// Format: comma-separated entries, read left to right. `@<replica>` names
/// the replica and `=<16 hex digits>` the hybrid timestamp of the field
/// entries after it; any other entry is a field name, whose version is that
/// (replica, timestamp). Entries are grouped by version, so a task written
/// in one edit or one import — the most common row — names its version once:
/// `@6301bbfc-…,=0000019a6b3c0001,title,notes,urgency`. A field name that
/// itself starts with `@`, `=` or `\` is written after a `\`.
///
/// Contract: ``decode(_:)`` gives back exactly what ``encode(_:)`` was given;
/// a malformed entry is skipped, never guessed at (a field before any
/// replica or timestamp, a bad replica or timestamp, a bad name). Field
/// names may hold `:`, `@` and `=` (tag registers like `tag:Work:x@y`) but
/// never `,`. Stores of schema v1–v4 wrote `<field>:<16 hex>@<replica>` for
/// every entry; ``decodeLegacy(_:)`` reads that form, for the v5 migration
/// only.
enum VersionsColumn {
    static func encode(_ versions: [TaskField: Version]) -> String {
        // Most often every field has the same version (a task written in
        // one edit or one import): then only the fields are sorted.
        if let first = versions.first?.value, versions.values.allSatisfy({ $0 == first }) {
            return encode(versions.keys, at: first)
        }
        // By replica, then timestamp, then field.
        return encode(sorted: versions.sorted { a, b in
            if a.value.replica != b.value.replica { return a.value.replica < b.value.replica }
            return a.value.timestamp != b.value.timestamp ? a.value.timestamp < b.value.timestamp : a.key < b.key
        })
    }

    /// ``encode(_:)`` of `fields`, every one at `version` (a field named
    /// twice is named once): one edit's outbox entry, without a dictionary.
    static func encode(_ fields: some Sequence<TaskField>, at version: Version) -> String {
        // Known fields (almost every write names only those) are a bit each,
        // named in table order — their order under `<`, before any other
        // register — with no array of fields to sort and deduplicate.
        var known: UInt32 = 0
        var others: [TaskField] = []
        for field in fields {
            if let index = field.tableIndex { known |= 1 << UInt32(index) } else { others.append(field) }
        }
        guard known != 0 || !others.isEmpty else { return "" }
        var out: [UInt8] = []
        out.reserveCapacity(56 + known.nonzeroBitCount * 10 + others.count * 16)
        out.append(UInt8(ascii: "@"))
        out.append(contentsOf: version.replica.rawValue.utf8)
        appendTimestamp(version.timestamp, to: &out)
        let names = knownNames
        while known != 0 {
            out.append(UInt8(ascii: ","))
            // In table order, as bytes; no known name starts with `@`, `=` or `\`.
            out.append(contentsOf: names[known.trailingZeroBitCount].1)
            known &= known &- 1
        }
        if !others.isEmpty {
            others.sort()
            var last: TaskField?
            for field in others where field != last {
                appendName(field, to: &out)
                last = field
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes entries already in the column's order.
    private static func encode(sorted: [(key: TaskField, value: Version)]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(60 + sorted.count * 10)
        var replica: ReplicaID?
        var timestamp: HybridTimestamp?
        for (field, version) in sorted {
            if version.replica != replica {
                if !out.isEmpty { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "@"))
                out.append(contentsOf: version.replica.rawValue.utf8)
                replica = version.replica
                timestamp = nil
            }
            if version.timestamp != timestamp {
                appendTimestamp(version.timestamp, to: &out)
                timestamp = version.timestamp
            }
            appendName(field, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `,=` and the timestamp's 16 hex digits.
    private static func appendTimestamp(_ timestamp: HybridTimestamp, to out: inout [UInt8]) {
        out.append(contentsOf: ",=".utf8)
        let raw = UInt64(bitPattern: timestamp.rawValue)
        hexDigits.withUnsafeBufferPointer { hex in
            for shift in stride(from: 60, through: 0, by: -4) { out.append(hex[Int((raw >> UInt64(shift)) & 0xF)]) }
        }
    }

    /// `,` and the field's name (after a `\` when it starts with `@`, `=` or `\`).
    private static func appendName(_ field: TaskField, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        let name = field.rawValue.utf8
        if let first = name.first, first == UInt8(ascii: "@") || first == UInt8(ascii: "=") || first == UInt8(ascii: "\\") {
            out.append(UInt8(ascii: "\\"))
        }
        out.append(contentsOf: name)
    }

    /// The replica ids met while reading many rows, so that each is parsed
    /// once per read instead of once per row (most rows share a few).
    struct Replicas {
        private var known: [([UInt8], ReplicaID)] = []

        mutating func id(_ bytes: UnsafeBufferPointer<UInt8>) -> ReplicaID? {
            for (raw, id) in known where VersionsColumn.equal(raw, bytes) { return id }
            guard let id = ReplicaID(String(decoding: bytes, as: UTF8.self)) else { return nil }
            if known.count < 8 { known.append((Array(bytes), id)) }
            return id
        }
    }

    /// Parses the column on UTF-8 bytes (every read of a task comes through
    /// here).
    static func decode(_ text: String) -> [TaskField: Version] {
        var replicas = Replicas()
        return decode(text, replicas: &replicas)
    }

    /// ``decode(_:)``, with the replica ids of earlier rows at hand.
    static func decode(_ text: String, replicas: inout Replicas) -> [TaskField: Version] {
        var out: [TaskField: Version] = [:]
        forEachEntry(text, replicas: &replicas, into: &out, room: { $0.reserveCapacity($1) }) { $0[$1] = $2 }
        return out
    }

    /// ``decode(_:replicas:)``'s entries as a list, fields in the byte order
    /// of their names (``TaskField/precedesInByteOrder(_:_:)``); a field the
    /// column names twice is listed once, with its last entry, as in the map.
    static func entriesByName(_ text: String, replicas: inout Replicas) -> [(field: TaskField, version: Version)] {
        var entries: [(field: TaskField, version: Version)] = []
        forEachEntry(text, replicas: &replicas, into: &entries, room: { $0.reserveCapacity($1) }) { $0.append(($1, $2)) }
        // The sort is stable, so one field's entries stay in column order
        // next to each other; of those, the last is kept.
        entries.sort { TaskField.precedesInByteOrder($0.field, $1.field) }
        var out: [(field: TaskField, version: Version)] = []
        out.reserveCapacity(entries.count)
        for entry in entries {
            if let last = out.last, last.field == entry.field { out[out.count - 1] = entry } else { out.append(entry) }
        }
        return out
    }

    /// The newest version the column holds and a field that holds it (the
    /// entry ``decode(_:)``'s map has the highest version for), without the
    /// map: all a listing needs for `modified`. (A column naming a field
    /// twice, which ``encode(_:)`` never writes, counts both entries here.)
    static func newest(_ text: String, replicas: inout Replicas) -> (TaskField, Version)? {
        var newest: (TaskField, Version)?
        forEachEntry(text, replicas: &replicas, into: &newest, room: nil) { newest, field, version in
            if newest.map({ version > $0.1 }) ?? true { newest = (field, version) }
        }
        return newest
    }

    /// Every well-formed field entry of the column, left to right, with its
    /// version: the one reading of the format, under ``decode(_:)`` and
    /// ``newest(_:replicas:)``, each adding
    /// to `state`. `room`, when given, is told first how many field entries
    /// there are at most.
    @inline(__always)
    private static func forEachEntry<State>(_ text: String, replicas: inout Replicas, into state: inout State,
                                            room: ((inout State, Int) -> Void)?, _ body: (inout State, TaskField, Version) -> Void) {
        var text = text
        text.withUTF8 { forEachEntry($0, replicas: &replicas, into: &state, room: room, body) }
    }

    /// ``forEachEntry(_:replicas:into:room:_:)`` on the column's bytes.
    @inline(__always)
    private static func forEachEntry<State>(_ bytes: UnsafeBufferPointer<UInt8>, replicas: inout Replicas, into state: inout State,
                                            room: ((inout State, Int) -> Void)?, _ body: (inout State, TaskField, Version) -> Void) {
        if let room {
            // One per entry not starting with `@` or `=` (a dictionary grown
            // entry by entry rehashes itself on the way).
            var fields = 0, entryStart = true
            for b in bytes {
                if entryStart && b != UInt8(ascii: "@") && b != UInt8(ascii: "=") && b != UInt8(ascii: ",") { fields += 1 }
                entryStart = b == UInt8(ascii: ",")
            }
            room(&state, fields)
        }
        var replica: ReplicaID?
        var timestamp: Int64?
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
            defer { start = end + 1 }
            guard end > start else { continue }
            switch bytes[start] {
            case UInt8(ascii: "@"):
                // A bad replica leaves the fields after it without one.
                replica = end - start == 37 ? replicas.id(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])) : nil
                timestamp = nil
            case UInt8(ascii: "="):
                timestamp = Self.timestamp(bytes, start + 1, end)
            default:
                let escaped = bytes[start] == UInt8(ascii: "\\")
                guard let replica, let timestamp,
                      let field = field(UnsafeBufferPointer(rebasing: bytes[(escaped ? start + 1 : start)..<end])) else { continue }
                body(&state, field, Version(timestamp: HybridTimestamp(rawValue: timestamp), replica: replica))
            }
        }
    }

    /// The field named by `name`: a known field matched on its bytes (no
    /// string made, nothing hashed), any other through ``TaskField/init(rawValue:)``.
    private static func field(_ name: UnsafeBufferPointer<UInt8>) -> TaskField? {
        for (field, known) in knownNames where equal(known, name) { return field }
        return TaskField(rawValue: String(decoding: name, as: UTF8.self))
    }

    private static let knownNames: [(TaskField, [UInt8])] = TaskField.known.map { ($0, Array($0.rawValue.utf8)) }

    /// Whether `a` and `b` hold the same bytes (compared at once, not
    /// element by element through two iterators).
    @inline(__always)
    static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { a in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
    }

    /// 16 hex digits in `bytes[start..<end]` as a non-negative timestamp.
    private static func timestamp(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
        guard end - start == 16, let raw = HexDigits.value(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return nil }
        return raw <= UInt64(Int64.max) ? Int64(raw) : nil
    }

    /// The schema v1–v4 form, `<field>:<16 hex>@<replica>` per entry.
    static func decodeLegacy(_ text: String) -> [TaskField: Version] {
        var out: [TaskField: Version] = [:]
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                defer { start = end + 1 }
                // `field` may itself hold ':' and '@': the version is the 16
                // hex digits before the last '@' (replica ids have none).
                var at = end - 1
                while at > start && bytes[at] != UInt8(ascii: "@") { at -= 1 }
                let colon = at - 17
                guard colon > start, bytes[colon] == UInt8(ascii: ":"),
                      let raw = timestamp(bytes, colon + 1, at),
                      let replica = ReplicaID(String(decoding: UnsafeBufferPointer(rebasing: bytes[(at + 1)..<end]), as: UTF8.self)),
                      let field = TaskField(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<colon]), as: UTF8.self))
                else { continue }
                out[field] = Version(timestamp: HybridTimestamp(rawValue: raw), replica: replica)
            }
        }
        return out
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
