import Dispatch
import Foundation
import NextUpCore
import Synchronization

/// JSON output of tasks (DESIGN.md §4 task objects): ``TaskJSON`` through
/// `JSONEncoder`, every key present (unset is `null`), keys sorted, `/` not
/// escaped, pretty-printed unless asked otherwise.
enum JSONOutput {
    static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The array of `tasks`; with `versions`, each field's version too
    /// (`export`: a lossless backup).
    static func string(_ tasks: [TaskItem], pretty: Bool = true, versions: Bool = false) throws -> String {
        String(decoding: try encoder(pretty: pretty).encode(tasks.map { TaskJSON($0, versions: versions) }), as: UTF8.self)
    }

    /// One task's object (`show --json`, `add --json`).
    static func string(_ task: TaskItem) throws -> String {
        String(decoding: try encoder(pretty: true).encode(TaskJSON(task)), as: UTF8.self)
    }

    /// The pretty array of `tasks` and a newline, as `export` and `list --json`
    /// write it. A long list is encoded in pieces on every core, each
    /// piece an array whose elements are then joined into one.
    static func data(_ tasks: [TaskItem], versions: Bool, piece: Int = 1000) throws -> Data {
        @Sendable func encoded(_ range: Range<Int>) throws -> Data {
            try encoder(pretty: true).encode(tasks[range].map { TaskJSON($0, versions: versions) })
        }
        guard tasks.count > piece else { return try encoded(tasks.indices) + Data("\n".utf8) }
        let pieces = Mutex([Result<Data, Error>?](repeating: nil, count: (tasks.count + piece - 1) / piece))
        DispatchQueue.concurrentPerform(iterations: pieces.withLock(\.count)) { k in
            let made = Result { try encoded(k * piece..<min(tasks.count, (k + 1) * piece)) }
            pieces.withLock { $0[k] = made }
        }
        // Each piece is `[\n  {…},\n  {…}\n]`: its elements lie between the
        // `[` and the last newline.
        var data = Data("[".utf8)
        for (k, made) in try pieces.withLock({ $0 }).enumerated() {
            if k > 0 { data.append(UInt8(ascii: ",")) }
            data.append(try made!.get().dropFirst().dropLast(2))
        }
        data.append(contentsOf: "\n]\n".utf8)
        return data
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
