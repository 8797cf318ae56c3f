import Foundation
import NextUpCore

/// JSON output of tasks (DESIGN.md §4 task objects), the one writer of them:
/// a ``TaskJSON`` as `JSONEncoder` would write it with `[.prettyPrinted,
/// .sortedKeys, .withoutEscapingSlashes]` — every key present (unset is
/// `null`) but `extra` and `versions`, keys in byte order, two-space indent.
///
/// Written by hand rather than through `JSONEncoder`, whose generic encoding
/// of each value cannot write a whole export within its budget
/// (docs/benchmarks.md); reading goes through `JSONDecoder` (``decodeTasks(_:)``).
enum JSONOutput {
    /// The array of `tasks` and a newline, as `export` and `list --json`
    /// write it; with `versions`, each field's version too (`export`: a
    /// lossless backup).
    static func data(_ tasks: [TaskItem], versions: Bool) -> Data {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(tasks.count * (versions ? 1_500 : 700))
        for (i, task) in tasks.enumerated() {
            out.append(contentsOf: (i == 0 ? "\n  " : ",\n  ").utf8)
            write(TaskJSON(task, versions: versions), indent: 2, to: &out)
        }
        out.append(contentsOf: (tasks.isEmpty ? "\n\n]\n" : "\n]\n").utf8)
        return Data(out)
    }

    /// One task's object (`show --json`, `add --json`).
    static func string(_ task: TaskItem) -> String {
        var out: [UInt8] = []
        write(TaskJSON(task), indent: 0, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `t` as an object whose closing brace stands `indent` spaces in.
    static func write(_ t: TaskJSON, indent: Int, to out: inout [UInt8]) {
        let inner = indent + 2
        var first = true
        func key(_ name: String) {
            out.append(contentsOf: (first ? "{\n" : ",\n").utf8)
            first = false
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: inner))
            JSONBytes.appendString(name, to: &out, escapingSlashes: false)
            out.append(contentsOf: " : ".utf8)
        }
        func text(_ name: String, _ value: String?) {
            key(name)
            if let value { JSONBytes.appendString(value, to: &out, escapingSlashes: false) } else { out.append(contentsOf: "null".utf8) }
        }
        func literal(_ name: String, _ value: String) {
            key(name)
            out.append(contentsOf: value.utf8)
        }
        func number(_ name: String, _ value: Int?) { literal(name, value.map(String.init) ?? "null") }
        /// An array or object `[`…`]` of `elements`, one a line, in the order given.
        func collection(_ name: String, _ open: String, _ close: String, _ elements: [(key: String?, value: FieldValue)]) {
            key(name)
            out.append(contentsOf: "\(open)\n".utf8)
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(contentsOf: ",\n".utf8) }
                out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: inner + 2))
                if let name = element.key {
                    JSONBytes.appendString(name, to: &out, escapingSlashes: false)
                    out.append(contentsOf: " : ".utf8)
                }
                JSONBytes.appendValue(element.value, to: &out, escapingSlashes: false)
            }
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: inner))
            out.append(contentsOf: close.utf8)
        }
        func inByteOrder<V>(_ entries: [String: V]) -> [(key: String, value: V)] {
            entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }

        text("category", t.category)
        text("completed_at", t.completedAt)
        text("created", t.created)
        literal("deleted", t.deleted == true ? "true" : "false")
        literal("done", t.done == true ? "true" : "false")
        text("due", t.due)
        number("duration", t.duration)
        text("external_id", t.externalID)
        if let extra = t.extra { collection("extra", "{", "}", inByteOrder(extra).map { ($0.key, $0.value) }) }
        text("id", t.id)
        number("importance", t.importance)
        text("modified", t.modified)
        literal("next_up", t.nextUp == true ? "true" : "false")
        text("notes", t.notes)
        text("source", t.source)
        collection("tags", "[", "]", (t.tags ?? []).map { (nil, .string($0)) })
        text("title", t.title)
        text("urgency", t.urgency)
        if let versions = t.versions { collection("versions", "{", "}", inByteOrder(versions).map { ($0.key, .string($0.value)) }) }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        out.append(UInt8(ascii: "}"))
    }

    /// Decodes an import file, turning decoder errors into one line that names
    /// the item and the key.
    static func decodeTasks(_ data: Data) throws -> [TaskJSON] {
        do {
            return try JSONDecoder().decode([TaskJSON].self, from: data)
        } catch let DecodingError.typeMismatch(type, ctx) {
            throw CLIError("import: \(place(ctx.codingPath)) has the wrong type (expected \(describe(type)))")
        } catch let DecodingError.valueNotFound(type, ctx) {
            throw CLIError("import: \(place(ctx.codingPath)) is null (expected \(describe(type)))")
        } catch let DecodingError.keyNotFound(key, ctx) {
            throw CLIError("import: \(place(ctx.codingPath + [key])) is missing")
        } catch DecodingError.dataCorrupted(let ctx) {
            if ctx.codingPath.isEmpty { throw CLIError("import: the file is not valid JSON (expected an array of task objects)") }
            throw CLIError("import: \(place(ctx.codingPath)): \(ctx.debugDescription)")
        } catch {
            throw CLIError("import: the file is not valid JSON (expected an array of task objects)")
        }
    }

    static func place(_ path: [CodingKey]) -> String {
        guard let first = path.first else { return "the file" }
        var s = first.intValue.map { "item \($0 + 1)" } ?? "'\(first.stringValue)'"
        if path.count > 1 { s += ": '\(path.dropFirst().map(\.stringValue).joined(separator: "."))'" }
        return s
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type: return "an integer"
        case is Bool.Type: return "true or false"
        case is [TaskJSON].Type, is Array<Any>.Type: return "an array of task objects"
        default: return type == TaskJSON.self ? "a task object" : "\(type)"
        }
    }
}
