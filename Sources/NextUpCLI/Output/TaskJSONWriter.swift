import NextUpCore

/// Writes task objects (DESIGN.md §4) as JSON text.
///
/// Contract: the output is byte for byte what Foundation's `JSONEncoder`
/// writes for ``TaskJSON`` with `[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]` (or `[.sortedKeys, .withoutEscapingSlashes]`
/// when not pretty) — every key present, unset as `null`, keys in byte order,
/// two-space indentation, `"key" : value` — written straight into one byte
/// buffer. The generic encoder took a third of `list --json` and `export`
/// at 100,000 tasks.
enum TaskJSONWriter {
    static func string(_ tasks: [TaskJSON], pretty: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(tasks.count * 560 + 8)
        if tasks.isEmpty {
            out += pretty ? Array("[\n\n]".utf8) : Array("[]".utf8)
        } else {
            out.append(UInt8(ascii: "["))
            for (i, task) in tasks.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { out += Array("\n  ".utf8) }
                write(task, indent: pretty ? 2 : nil, to: &out)
            }
            if pretty { out.append(UInt8(ascii: "\n")) }
            out.append(UInt8(ascii: "]"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The array of `tasks` as ``string(_:pretty:)`` writes it, followed by a
    /// newline, streamed into `out` (flushed as it fills): one task object
    /// alive at a time, never the whole text.
    static func stream(_ tasks: some Sequence<TaskItem>, pretty: Bool, versions: Bool, to out: inout FDOutput) throws {
        var any = false
        for (i, task) in tasks.enumerated() {
            if i == 0 { out.buffer.append(UInt8(ascii: "[")) }
            any = true
            if i > 0 { out.buffer.append(UInt8(ascii: ",")) }
            if pretty { out.buffer.append(contentsOf: "\n  ".utf8) }
            write(TaskJSON(task), versionsOf: versions ? task : nil, indent: pretty ? 2 : nil, to: &out.buffer)
            try out.flushIfFull()
        }
        guard any else {
            out.append(pretty ? Array("[\n\n]\n".utf8) : Array("[]\n".utf8))
            return
        }
        if pretty { out.buffer.append(UInt8(ascii: "\n")) }
        out.buffer.append(contentsOf: "]\n".utf8)
    }

    static func string(_ task: TaskJSON, pretty: Bool) -> String {
        var out: [UInt8] = []
        write(task, indent: pretty ? 0 : nil, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The keys, in the order `.sortedKeys` sorts them, quoted.
    private static let keys: [[UInt8]] = [
        "category", "completed_at", "created", "deleted", "done", "due", "duration", "external_id", "extra", "id",
        "importance", "modified", "next_up", "notes", "source", "tags", "title", "urgency", "versions",
    ].map { Array("\"\($0)\"".utf8) }
    /// The JSON keys this writer writes, for the field-table test.
    static let writtenKeys: Set<String> = Set(keys.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) })
    private static let null = Array("null".utf8), yes = Array("true".utf8), no = Array("false".utf8)

    /// Everything written before each key's value, as one run of bytes per
    /// key: the comma after the previous member, the newline and indentation,
    /// the quoted key and its separator. `pretty` is for an object whose `{`
    /// sits at column 2 (the streamed array's elements), `compact` for no
    /// indentation; any other indentation is made as it is written.
    private static let prettyPrefixes = keys.indices.map { prefix(field: $0, indent: 2) }
    private static let compactPrefixes = keys.indices.map { prefix(field: $0, indent: nil) }

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

    /// One object whose `{` sits at column `indent` (nil: compact). With
    /// `item`, its versions are written from the task itself (as
    /// `TaskJSON(item, versions: true)` would hold them), without building
    /// the dictionary of strings.
    private static func write(_ t: TaskJSON, versionsOf item: TaskItem? = nil, indent: Int?, to out: inout [UInt8]) {
        var field = 0
        let prefixes = indent == 2 ? prettyPrefixes : indent == nil ? compactPrefixes : keys.indices.map { prefix(field: $0, indent: indent) }
        func key() {
            prefixes[field].withUnsafeBufferPointer { out.append(contentsOf: $0) }
            field += 1
        }
        func string(_ s: String?) {
            key()
            if let s { JSONBytes.appendString(s, to: &out, escapingSlashes: false) } else { out.append(contentsOf: null) }
        }
        func int(_ n: Int?) {
            key()
            if let n { out.append(contentsOf: String(n).utf8) } else { out.append(contentsOf: null) }
        }
        func bool(_ b: Bool) {
            key()
            out.append(contentsOf: b ? yes : no)
        }
        /// Newline and indentation for an element `depth` levels inside the object.
        func newline(_ depth: Int) {
            guard let indent else { return }
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent + 2 * depth))
        }
        /// An object member by member; `pairs` in key byte order (as `.sortedKeys`).
        func members<V>(_ pairs: [(String, V)]?, _ write: (V) -> Void) {
            guard let values = pairs else { field += 1; return }
            key()
            out.append(UInt8(ascii: "{"))
            if values.isEmpty && indent != nil { out.append(UInt8(ascii: "\n")); newline(1) }
            for (i, (name, value)) in values.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(2)
                JSONBytes.appendString(name, to: &out, escapingSlashes: false)
                if indent == nil { out.append(UInt8(ascii: ":")) } else { out.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")]) }
                write(value)
            }
            if !values.isEmpty { newline(1) }
            out.append(UInt8(ascii: "}"))
        }
        func inByteOrder<V>(_ values: [String: V]?) -> [(String, V)]? {
            values?.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
        }
        func object(_ values: [String: String]?) { members(inByteOrder(values)) { JSONBytes.appendString($0, to: &out, escapingSlashes: false) } }
        func extra(_ values: [String: FieldValue]?) { members(inByteOrder(values)) { JSONBytes.appendValue($0, to: &out, escapingSlashes: false) } }
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
        out.append(UInt8(ascii: "{"))
        string(t.category); string(t.completedAt); string(t.created); bool(t.deleted ?? false)
        bool(t.done ?? false); string(t.due); int(t.duration); string(t.externalID); extra(t.extra); string(t.id)
        int(t.importance); string(t.modified); bool(t.nextUp ?? false); string(t.notes)
        string(t.source); strings(t.tags ?? []); string(t.title); string(t.urgency)
        if let item {
            // Register names in byte order, as `.sortedKeys` sorts them.
            let sorted = item.versions.sorted { TaskField.precedesInByteOrder($0.key, $1.key) }.map { ($0.key.rawValue, $0.value) }
            members(sorted) { version in
                out.append(UInt8(ascii: "\""))
                version.appendEncoded(to: &out)
                out.append(UInt8(ascii: "\""))
            }
        } else {
            object(t.versions)
        }
        if let indent {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        }
        out.append(UInt8(ascii: "}"))
    }
}
