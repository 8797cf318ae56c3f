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

    static func string(_ task: TaskJSON, pretty: Bool) -> String {
        var out: [UInt8] = []
        write(task, indent: pretty ? 0 : nil, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The keys, in the order `.sortedKeys` sorts them, quoted.
    private static let keys: [[UInt8]] = [
        "category", "completed_at", "created", "deleted", "done", "due", "duration", "external_id", "id",
        "importance", "modified", "next_up", "notes", "source", "title", "urgency",
    ].map { Array("\"\($0)\"".utf8) }
    private static let null = Array("null".utf8), yes = Array("true".utf8), no = Array("false".utf8)

    /// One object whose `{` sits at column `indent` (nil: compact).
    private static func write(_ t: TaskJSON, indent: Int?, to out: inout [UInt8]) {
        var field = 0
        func key() {
            if field > 0 { out.append(UInt8(ascii: ",")) }
            if let indent {
                out.append(UInt8(ascii: "\n"))
                out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent + 2))
            }
            out.append(contentsOf: keys[field])
            if indent == nil {
                out.append(UInt8(ascii: ":"))
            } else {
                out.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
            }
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
        out.append(UInt8(ascii: "{"))
        string(t.category); string(t.completedAt); string(t.created); bool(t.deleted ?? false)
        bool(t.done ?? false); string(t.due); int(t.duration); string(t.externalID); string(t.id)
        int(t.importance); string(t.modified); bool(t.nextUp ?? false); string(t.notes)
        string(t.source); string(t.title); string(t.urgency)
        if let indent {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        }
        out.append(UInt8(ascii: "}"))
    }
}
