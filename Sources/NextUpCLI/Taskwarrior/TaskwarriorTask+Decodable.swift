import Foundation
import NextUpCore

extension TaskwarriorTask: Decodable {
    /// The item's name in errors when it is not an array's element (a reader
    /// of one object per line sets it: "line 3").
    static let placeKey = CodingUserInfoKey(rawValue: "nextup.taskwarrior.place")!

    /// One task object; a bad one throws a ``TaskInputError`` naming it
    /// ("item 3", "line 3", with its uuid when it has one).
    init(from decoder: any Decoder) throws {
        let place = decoder.codingPath.last?.intValue.map { "item \($0 + 1)" } ?? decoder.userInfo[Self.placeKey] as? String ?? "the task"
        guard let o = try? decoder.container(keyedBy: AttributeKey.self) else { throw TaskInputError("\(place) is not a task object") }
        guard o.contains("uuid") else { throw TaskInputError("\(place) has no uuid") }
        guard let text = try? o.decode(String.self, forKey: "uuid"), let uuid = TaskID(text) else {
            let raw = (try? o.decode(String.self, forKey: "uuid")) ?? (try? o.decode(JSONValue.self, forKey: "uuid")).map(\.text) ?? "?"
            throw TaskInputError("\(place): 'uuid' is not a UUID (\(Sanitizer.visible(raw)))")
        }
        let name = "\(place) (\(uuid.rawValue))"
        func fail(_ message: String) -> TaskInputError { TaskInputError("\(name): \(message)") }
        func string(_ key: String) throws -> String? {
            guard o.contains(AttributeKey(key)) else { return nil }
            guard let s = try? o.decode(String.self, forKey: AttributeKey(key)) else { throw fail("'\(key)' is not text") }
            return s
        }
        guard let description = try string("description") else { throw fail("it has no description") }
        guard let statusText = try string("status") else { throw fail("it has no status") }
        guard let status = Status(rawValue: statusText) else {
            throw fail("unknown status '\(Sanitizer.visible(statusText))' (expected pending, waiting, completed, deleted or recurring)")
        }
        var dates: [String: Int64] = [:]
        for key in Self.dateAttributes {
            guard let text = try string(key) else { continue }
            guard let millis = TaskwarriorDate.parse(text) else {
                throw fail("'\(key)' is not a Taskwarrior date (\(Sanitizer.visible(text)); expected YYYYMMDDTHHMMSSZ)")
            }
            dates[key] = millis
        }
        self.init(uuid: uuid, description: description, status: status, dates: dates,
                  priority: try string("priority"), project: try string("project"))
        if o.contains("tags") {
            guard let names = try? o.decode([String].self, forKey: "tags") else { throw fail("'tags' is not a list of text") }
            tags = names
        }
        if o.contains("annotations") {
            if let list = try? o.decode([AnnotationObject].self, forKey: "annotations"), !list.contains(where: { $0.annotation == nil }) {
                annotations = list.compactMap(\.annotation)
            } else {
                guard let list = try? o.decode([JSONValue].self, forKey: "annotations") else { throw fail("'annotations' is not a list") }
                let bad = list.firstIndex { item in
                    guard case .object(let a) = item, case .string? = a["description"], case .string(let entry)? = a["entry"] else { return true }
                    return TaskwarriorDate.parse(entry) == nil
                } ?? 0
                throw fail("annotation \(bad + 1) needs an 'entry' date and a 'description'")
            }
        }
        for key in o.allKeys where !Self.mapped.contains(key.stringValue) && !Self.computed.contains(key.stringValue)
            && !Self.dateAttributes.contains(key.stringValue) {
            guard let value = try? o.decode(JSONValue.self, forKey: key) else { throw fail("'\(key.stringValue)' cannot be kept") }
            other[key.stringValue] = value.text
        }
    }
}

/// An annotation as written: `entry` and `description`, both text.
private struct AnnotationObject: Decodable {
    var entry: String?
    var description: String?

    var annotation: TaskwarriorTask.Annotation? {
        guard let description, let entry = entry.flatMap(TaskwarriorDate.parse) else { return nil }
        return TaskwarriorTask.Annotation(entry: entry, description: description)
    }
}

/// An attribute's name.
private struct AttributeKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init(stringLiteral name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}
