import NextUpCore
import NextUpStore

/// Writes task objects (DESIGN.md §4) as JSON text: the one writer of the
/// task object, for every JSON output (`export`, `list --json`,
/// `next --json`, `show --json`, `add --json`), from a ``TaskItem`` or from a
/// stored row read in place (``TaskJSONSource``).
///
/// Contract: the output is byte for byte what Foundation's `JSONEncoder`
/// writes for `TaskJSON(task, versions:)` with `[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]` (or `[.sortedKeys, .withoutEscapingSlashes]`
/// when not pretty) — every key present, unset as `null`, keys in byte order,
/// two-space indentation, `"key" : value` — written straight into one byte
/// buffer. The generic encoder took a third of `list --json` and `export`
/// at 100,000 tasks; building a ``TaskJSON`` first, a tenth of an export.
enum TaskJSONWriter {
    /// The array of `tasks` as one string (no trailing newline).
    static func string(_ tasks: [TaskItem], pretty: Bool, versions: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(tasks.count * 560 + 8)
        var scratch = Scratch()
        defer { scratch.deallocate() }
        if tasks.isEmpty {
            out += pretty ? Array("[\n\n]".utf8) : Array("[]".utf8)
        } else {
            out.append(UInt8(ascii: "["))
            for (i, task) in tasks.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { out += Array("\n  ".utf8) }
                write(task, versions: versions, indent: pretty ? 2 : nil, scratch: &scratch, to: &out)
            }
            if pretty { out.append(UInt8(ascii: "\n")) }
            out.append(UInt8(ascii: "]"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The array of `tasks` as ``string(_:pretty:versions:)`` writes it,
    /// followed by a newline, streamed into `out` (``stream(count:pretty:versions:tasksPerPiece:to:_:)``).
    static func stream(_ tasks: [TaskItem], pretty: Bool, versions: Bool, tasksPerPiece: Int = TaskJSONWriter.tasksPerPiece, to out: inout FDOutput) throws {
        try stream(count: tasks.count, pretty: pretty, versions: versions, tasksPerPiece: tasksPerPiece, to: &out) { range, body in
            // Each task written where it is (iterating copied each TaskItem
            // out, every string of it retained: 4% of `list --json`).
            for i in range { body(tasks[i]) }
        }
    }

    /// The rows of `rows` at `positions`, in that order, as an array the
    /// same as their tasks' (a test holds them together), streamed into
    /// `out` (``stream(count:pretty:versions:tasksPerPiece:to:_:)``): `export`
    /// and `list --json` of a whole set.
    static func stream(_ rows: TaskRowBuffer, at positions: [Int], pretty: Bool, versions: Bool,
                       tasksPerPiece: Int = TaskJSONWriter.tasksPerPiece, to out: inout FDOutput) throws {
        try stream(count: positions.count, pretty: pretty, versions: versions, tasksPerPiece: tasksPerPiece, to: &out) { range, body in
            rows.forEachRow(at: positions[range], body)
        }
    }

    /// How many tasks one piece of a streamed array holds (about a
    /// megabyte of `export`).
    static let tasksPerPiece = 1024

    /// The array of `count` tasks, followed by a newline, streamed into
    /// `out` (flushed as it fills), never the whole text at once: written in
    /// pieces of `tasksPerPiece` tasks, on two threads when there is more
    /// than one piece (``Handoff``: the caller's and another), and appended
    /// to `out` in order. `tasks(range, body)` hands `body` the tasks at the
    /// positions in `range`, in order; it is called on both threads at once
    /// for different ranges. Writing the objects took half an export's time
    /// (100,000 tasks), and the rows are only read.
    static func stream<Source: TaskJSONSource>(count: Int, pretty: Bool, versions: Bool, tasksPerPiece: Int = TaskJSONWriter.tasksPerPiece,
                                               to out: inout FDOutput, _ tasks: (Range<Int>, (Source) -> Void) -> Void) throws {
        guard count > 0 else {
            out.append(pretty ? Array("[\n\n]\n".utf8) : Array("[]\n".utf8))
            return
        }
        let size = max(1, tasksPerPiece)
        func makePiece(_ k: Int) -> [UInt8] {
            let range = k * size..<min(count, (k + 1) * size)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(range.count * (versions ? 1100 : 700))
            var scratch = Scratch()
            defer { scratch.deallocate() }
            var first = range.lowerBound == 0
            tasks(range) { task in
                bytes.append(first ? UInt8(ascii: "[") : UInt8(ascii: ","))
                first = false
                if pretty { bytes.append(contentsOf: "\n  ".utf8) }
                write(task, versions: versions, indent: pretty ? 2 : nil, scratch: &scratch, to: &bytes)
            }
            return bytes
        }
        let pieces = (count + size - 1) / size
        if pieces == 1 {
            var bytes = makePiece(0)
            try out.append(taking: &bytes)
        } else {
            try Handoff.run(count: pieces, run: 1, make: makePiece) { made in
                var bytes = made
                try out.append(taking: &bytes)
            }
        }
        if pretty { out.buffer.append(UInt8(ascii: "\n")) }
        out.buffer.append(contentsOf: "]\n".utf8)
    }

    /// One object, its `{` at column 0 (`show --json`, `add --json`), or compact.
    static func string(_ task: TaskItem, pretty: Bool, versions: Bool = false) -> String {
        var out: [UInt8] = []
        var scratch = Scratch()
        defer { scratch.deallocate() }
        write(task, versions: versions, indent: pretty ? 0 : nil, scratch: &scratch, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// What one task's object needs beyond the output, kept from task to task.
    struct Scratch {
        /// The object being written.
        var stage = ByteStage()
        /// The task's versions, with nothing counted by reference: each
        /// entry's register (a known field's table index, or `-1 - i` for
        /// `others[i]`), timestamp and replica (its place in `replicas`).
        var versions: [(register: Int, timestamp: HybridTimestamp, replica: Int)] = []
        /// The task's registers that are not known fields (tags, opaque fields).
        var others: [TaskField] = []
        /// The order to write `versions` in, as positions.
        var order: [Int] = []
        /// Every replica met so far, with its id's text (kept for the whole
        /// output: a store names a few).
        var replicas: [ReplicaID] = []
        var replicaTexts: [UnsafeBufferPointer<UInt8>] = []
        var replicaPlaces: [ReplicaID: Int] = [:]
        var lastReplica = 0

        /// `replica`'s place in `replicas`, added when new.
        mutating func place(of replica: ReplicaID) -> Int {
            if lastReplica < replicas.count, replicas[lastReplica] == replica { return lastReplica }
            if let known = replicaPlaces[replica] {
                lastReplica = known
                return known
            }
            replicas.append(replica)
            replicaTexts.append(immortal(Array(replica.rawValue.utf8)))
            replicaPlaces[replica] = replicas.count - 1
            lastReplica = replicas.count - 1
            return lastReplica
        }

        /// The register of an entry of `versions`.
        func field(_ register: Int) -> TaskField { register >= 0 ? knownFields[register] : others[-1 - register] }

        func deallocate() {
            stage.deallocate()
            replicaTexts.forEach { $0.deallocate() }
        }
    }

    private static let knownFields = TaskField.known

    /// Each known field's place among the known fields' names in byte order
    /// (``TaskField/precedesInByteOrder(_:_:)``), by table index: versions
    /// of known fields only (almost every task) are put in order as integers.
    private static let byteOrderRanks: [Int] = {
        let known = TaskField.known
        let sorted = known.sorted(by: TaskField.precedesInByteOrder)
        return known.map { field in sorted.firstIndex(of: field)! }
    }()

    /// The keys, in the order `.sortedKeys` sorts them, quoted.
    private static let keys: [[UInt8]] = [
        "category", "completed_at", "created", "deleted", "done", "due", "duration", "external_id", "extra", "id",
        "importance", "modified", "next_up", "notes", "source", "tags", "title", "urgency", "versions",
    ].map { Array("\"\($0)\"".utf8) }
    /// The JSON keys this writer writes, for the field-table test.
    static let writtenKeys: Set<String> = Set(keys.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) })
    private static let null: StaticString = "null", yes: StaticString = "true", no: StaticString = "false"

    /// Everything written before each key's value, as one run of bytes per
    /// key: the comma after the previous member, the newline and indentation,
    /// the quoted key and its separator. `pretty` is for an object whose `{`
    /// sits at column 2 (the streamed array's elements), `compact` for no
    /// indentation; any other indentation is made as it is written.
    /// Both are made once and never freed (runs read without retaining an array).
    nonisolated(unsafe) private static let prettyPrefixes = keys.indices.map { immortal(prefix(field: $0, indent: 2)) }
    nonisolated(unsafe) private static let compactPrefixes = keys.indices.map { immortal(prefix(field: $0, indent: nil)) }
    /// For each known field (by table index), what comes before its version
    /// in the streamed array's `versions` object: the newline and
    /// indentation, the quoted name, its separator and the value's quote.
    nonisolated(unsafe) private static let prettyVersionNames = TaskField.known.map { field in
        immortal([UInt8(ascii: "\n")] + Array(repeating: UInt8(ascii: " "), count: 6) + Array("\"\(field.rawValue)\" : \"".utf8))
    }
    /// A newline and 64 spaces: any newline and indentation is a prefix of it.
    nonisolated(unsafe) private static let newlineAndSpaces = immortal([UInt8(ascii: "\n")] + Array(repeating: UInt8(ascii: " "), count: 64))

    private static func immortal(_ bytes: [UInt8]) -> UnsafeBufferPointer<UInt8> {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = copy.initialize(from: bytes)
        return UnsafeBufferPointer(copy)
    }

    private static func prefix(field: Int, indent: Int?) -> [UInt8] {
        var out: [UInt8] = []
        if field > 0 { out.append(UInt8(ascii: ",")) }
        if let indent {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent + 2))
        }
        out.append(contentsOf: keys[field])
        out.append(contentsOf: indent == nil ? [UInt8(ascii: ":")] : [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
        return out
    }

    // Both writers are specialised for the two sources: unspecialised, each
    // of a row's columns was read through the protocol's witness (export of
    // 100,000: CPU −1.5 to −4%).

    /// One object whose `{` sits at column `indent` (nil: compact); with
    /// `versions`, the `versions` member too (`export`).
    @_specialize(where Task == TaskItem)
    @_specialize(where Task == TaskColumns)
    private static func write<Task: TaskJSONSource>(_ t: Task, versions withVersions: Bool, indent: Int?,
                                                    scratch: inout Scratch, to result: inout [UInt8]) {
        var stage = scratch.stage
        stage.removeAll()
        write(t, versions: withVersions, indent: indent, scratch: &scratch, stage: &stage)
        result.append(contentsOf: stage.bytes)
        scratch.stage = stage
    }

    /// ``write(_:versions:indent:scratch:to:)`` into the stage (an `inout`
    /// parameter: the nested writers below reach it without a dynamic
    /// exclusivity check).
    @_specialize(where Task == TaskItem)
    @_specialize(where Task == TaskColumns)
    private static func write<Task: TaskJSONSource>(_ t: Task, versions withVersions: Bool, indent: Int?,
                                                    scratch: inout Scratch, stage out: inout ByteStage) {
        var field = 0
        let made = indent == 2 || indent == nil ? nil : keys.indices.map { immortal(prefix(field: $0, indent: indent)) }
        defer { made?.forEach { $0.deallocate() } }
        let prefixes = made ?? (indent == 2 ? prettyPrefixes : compactPrefixes)
        let spaces = newlineAndSpaces, versionNames = prettyVersionNames
        func literal(_ s: StaticString) { out.appendLiteral(s) }
        func key() {
            out.appendBytes(prefixes[field])
            field += 1
        }
        func bytes(_ text: UnsafeBufferPointer<UInt8>?) {
            if let text { JSONBytes.appendString(text, to: &out, escapingSlashes: false) } else { literal(null) }
        }
        func text(_ f: TaskField, emptyIsNull: Bool = false) {
            key()
            t.withText(f) { text in bytes(emptyIsNull && text?.isEmpty == true ? nil : text) }
        }
        func int(_ n: Int64?) {
            key()
            guard let n else { literal(null); return }
            var text = String(n)
            text.withUTF8 { out.appendBytes($0) }
        }
        func timestamp(_ millis: Int64?) {
            key()
            guard let millis else { literal(null); return }
            out.append(UInt8(ascii: "\""))
            Timestamps.appendRFC3339(millis, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        func bool(_ b: Bool) {
            key()
            literal(b ? yes : no)
        }
        /// Newline and indentation for an element `depth` levels inside the object.
        func newline(_ depth: Int) {
            guard let indent else { return }
            let n = 1 + indent + 2 * depth
            if n <= spaces.count { out.appendBytes(UnsafeBufferPointer(rebasing: spaces[..<n])); return }
            out.append(UInt8(ascii: "\n"))
            for _ in 1..<n { out.append(UInt8(ascii: " ")) }
        }
        /// An object of `count` members (absent when nil), `member(i)` writing
        /// the i-th (its ``name(_:)`` and value), in key byte order (as `.sortedKeys`).
        func members(_ count: Int?, _ member: (Int) -> Void) {
            guard let count else { field += 1; return }
            key()
            out.append(UInt8(ascii: "{"))
            if count == 0 && indent != nil { out.append(UInt8(ascii: "\n")); newline(1) }
            for i in 0..<count {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                member(i)
            }
            if count > 0 { newline(1) }
            out.append(UInt8(ascii: "}"))
        }
        /// A member's newline, indentation, name and separator.
        func name(_ s: String) {
            newline(2)
            JSONBytes.appendString(s, to: &out, escapingSlashes: false)
            if indent == nil { out.append(UInt8(ascii: ":")) } else { out.appendLiteral(" : ") }
        }
        func strings(_ list: [String]) {
            key()
            out.append(UInt8(ascii: "["))
            if list.isEmpty && indent != nil { out.append(UInt8(ascii: "\n")); newline(1) }
            for (i, s) in list.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(2)
                JSONBytes.appendString(s, to: &out, escapingSlashes: false)
            }
            if !list.isEmpty { newline(1) }
            out.append(UInt8(ascii: "]"))
        }
        scratch.versions.removeAll(keepingCapacity: true)
        scratch.others.removeAll(keepingCapacity: true)
        let modified = t.forEachVersion { field, version in
            let register: Int
            if let index = field.tableIndex {
                register = index
            } else {
                register = -1 - scratch.others.count
                scratch.others.append(field)
            }
            scratch.versions.append((register, version.timestamp, scratch.place(of: version.replica)))
        }
        let extra = t.extra
        let completedAt = t.integer(.done)
        out.append(UInt8(ascii: "{"))
        text(.category); timestamp(completedAt); timestamp(t.integer(.created) ?? 0); bool((t.integer(.deleted) ?? 0) != 0)
        bool(completedAt != nil); text(.due); int(t.integer(.duration)); text(.externalID)
        // The opaque registers (tag elements are `tags`), absent when none.
        let opaque = extra.isEmpty ? [] : extra.filter { $0.key.tagName == nil }
            .map { ($0.key.rawValue, $0.value) }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        members(opaque.isEmpty ? nil : opaque.count) { i in
            name(opaque[i].0)
            JSONBytes.appendValue(opaque[i].1, to: &out, escapingSlashes: false)
        }
        key(); t.withID { bytes($0) }
        int(t.integer(.importance)); timestamp(modified.millis); bool(t.withText(.nextUp) { $0 != nil }); text(.notes, emptyIsNull: true)
        text(.source); strings(TaskItem.tags(in: extra)); text(.title); text(.urgency)
        if withVersions {
            // Register names in byte order, as `.sortedKeys` sorts them:
            // positions sorted, no entry moved.
            let count = scratch.versions.count
            scratch.order.removeAll(keepingCapacity: true)
            if scratch.others.isEmpty {
                let ranks = byteOrderRanks
                for (i, entry) in scratch.versions.enumerated() { scratch.order.append(ranks[entry.register] << 32 | i) }
                scratch.order.sort()
                for i in 0..<count { scratch.order[i] &= 0xFFFF_FFFF }
            } else {
                let fields = scratch.versions.map { scratch.field($0.register) }
                scratch.order.append(contentsOf: 0..<count)
                scratch.order.sort { TaskField.precedesInByteOrder(fields[$0], fields[$1]) }
            }
            members(count) { i in
                let (register, timestamp, replica) = scratch.versions[scratch.order[i]]
                if indent == 2, register >= 0 {
                    out.appendBytes(versionNames[register])
                } else {
                    name(scratch.field(register).rawValue)
                    out.append(UInt8(ascii: "\""))
                }
                Version.appendEncoded(timestamp: timestamp, replica: scratch.replicaTexts[replica], to: &out)
                out.append(UInt8(ascii: "\""))
            }
        }
        newline(0)
        out.append(UInt8(ascii: "}"))
    }
}
