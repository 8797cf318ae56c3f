import Foundation
import NextUpCore

/// JSON output of tasks (DESIGN.md §4 task objects).
enum JSONOutput {
    /// With `versions`, each field's version too (`export`: a lossless backup).
    static func string(_ tasks: [TaskItem], pretty: Bool = true, versions: Bool = false) throws -> String {
        TaskJSONWriter.string(tasks, pretty: pretty, versions: versions)
    }

    static func string(_ task: TaskItem) throws -> String {
        TaskJSONWriter.string(task, pretty: true)
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
