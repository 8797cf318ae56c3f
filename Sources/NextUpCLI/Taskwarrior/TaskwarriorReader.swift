import Foundation
import NextUpCore

/// Reads what `task export` writes — a JSON array of task objects (2.6, 3.x)
/// or one object per line — into ``TaskwarriorTask``s.
///
/// Contract: all or nothing. Any bad item (not an object, no `uuid`, an
/// unknown `status`, a date not in Taskwarrior's form, a `tags` that is not a
/// list of strings, …) throws a ``TaskInputError`` of one line that names the
/// item (its position, and its uuid when it has one); nothing is returned.
enum TaskwarriorReader {
    static func read(_ data: Data) throws -> [TaskwarriorTask] {
        if let fast = TaskwarriorByteReader.read(data) { return fast }
        return try readWithFoundation(data)
    }

    /// The reference path: every spelling JSON allows, and the error messages.
    static func readWithFoundation(_ data: Data) throws -> [TaskwarriorTask] {
        guard let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw TaskInputError("the file is empty; expected what `task export` writes")
        }
        if first == UInt8(ascii: "[") {
            guard let array = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
                throw TaskInputError("the file is not valid JSON (is it cut short?); expected what `task export` writes")
            }
            return try array.enumerated().map { try task($1, where: "item \($0 + 1)") }
        }
        guard first == UInt8(ascii: "{") else {
            throw TaskInputError("the file is neither a JSON array of tasks nor one task object per line, as `task export` writes")
        }
        var tasks: [TaskwarriorTask] = []
        for (number, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) else {
                throw TaskInputError("line \(number + 1) is not valid JSON (is the file cut short?)")
            }
            tasks.append(try task(object, where: "line \(number + 1)"))
        }
        return tasks
    }

    /// One task object; `place` names it in errors ("item 3", "line 3").
    static func task(_ object: Any, where place: String) throws -> TaskwarriorTask {
        guard let o = object as? [String: Any] else { throw TaskInputError("\(place) is not a task object") }
        guard let rawUUID = o["uuid"] else { throw TaskInputError("\(place) has no uuid") }
        guard let text = rawUUID as? String, let uuid = TaskID(text) else {
            throw TaskInputError("\(place): 'uuid' is not a UUID (\(Sanitizer.visible(String(describing: rawUUID))))")
        }
        let name = "\(place) (\(uuid.short))"
        func fail(_ message: String) -> TaskInputError { TaskInputError("\(name): \(message)") }
        func string(_ key: String) throws -> String? {
            guard let value = o[key] else { return nil }
            guard let s = value as? String else { throw fail("'\(key)' is not text") }
            return s
        }
        guard let description = try string("description") else { throw fail("it has no description") }
        guard let statusText = try string("status") else { throw fail("it has no status") }
        guard let status = TaskwarriorTask.Status(rawValue: statusText) else {
            throw fail("unknown status '\(Sanitizer.visible(statusText))' (expected pending, waiting, completed, deleted or recurring)")
        }
        var dates: [String: Int64] = [:]
        for key in TaskwarriorTask.dateAttributes {
            guard let text = try string(key) else { continue }
            guard let millis = TaskwarriorDate.parse(text) else {
                throw fail("'\(key)' is not a Taskwarrior date (\(Sanitizer.visible(text)); expected YYYYMMDDTHHMMSSZ)")
            }
            dates[key] = millis
        }
        var t = TaskwarriorTask(uuid: uuid, description: description, status: status, dates: dates,
                                priority: try string("priority"), project: try string("project"))
        if let tags = o["tags"] {
            guard let list = tags as? [Any], let names = list as? [String] else { throw fail("'tags' is not a list of text") }
            t.tags = names
        }
        if let annotations = o["annotations"] {
            guard let list = annotations as? [Any] else { throw fail("'annotations' is not a list") }
            t.annotations = try list.enumerated().map { index, item in
                guard let a = item as? [String: Any], let text = a["description"] as? String,
                      let entryText = a["entry"] as? String, let entry = TaskwarriorDate.parse(entryText) else {
                    throw fail("annotation \(index + 1) needs an 'entry' date and a 'description'")
                }
                return TaskwarriorTask.Annotation(entry: entry, description: text)
            }
        }
        for (key, value) in o where !TaskwarriorTask.mapped.contains(key) && !TaskwarriorTask.computed.contains(key)
            && !TaskwarriorTask.dateAttributes.contains(key) {
            t.other[key] = try jsonText(value, key: key, fail: fail)
        }
        return t
    }

    /// Compact JSON text of one attribute value, keys sorted.
    static func jsonText(_ value: Any, key: String, fail: (String) -> TaskInputError) throws -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]) else {
            throw fail("'\(key)' cannot be kept")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
