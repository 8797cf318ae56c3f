import Foundation
import NextUpCore

/// Reads `task export` output on UTF-8 bytes, the way ``TaskwarriorReader``
/// reads it through `JSONSerialization` — which took a fifth of an import of
/// 10,000 tasks, and most of its memory (the parsed objects of the whole file,
/// freed one by one at the end).
///
/// Contract: nil whenever it is not sure — any item the other path would
/// reject, a key given twice, a string escape ``JSONByteReader`` does not
/// take — and ``TaskwarriorReader`` then reads the file the other way, with
/// its error messages. When not nil, the tasks equal what the other path
/// gives: a kept attribute's text is the value's bytes only for a string of
/// printable ASCII without escapes and for a plain integer (what
/// `JSONSerialization` writes back for them); any other value is passed
/// through ``TaskwarriorReader/jsonText(_:key:fail:)`` itself.
enum TaskwarriorByteReader {
    /// What the second half of a file read in halves leaves behind as its
    /// tasks are moved (one shared id, nothing else on the heap).
    private static let placeholder = TaskwarriorTask(uuid: .zero, description: "", status: .pending)
    /// About the fewest bytes `task export` writes for a task (its uuid,
    /// description, status and dates), for the room an array is made with.
    private static let elementBytes = 160

    static func read(_ data: Data) -> [TaskwarriorTask]? {
        data.withUnsafeBytes { raw -> [TaskwarriorTask]? in
            var reader = JSONByteReader(bytes: raw.bindMemory(to: UInt8.self))
            reader.skipWhitespace()
            guard !reader.atEnd else { return nil }  // the other path says the file is empty
            var tasks: [TaskwarriorTask] = []
            if reader.bytes[reader.index] == UInt8(ascii: "[") {
                if reader.bytes.count >= JSONByteReader.halvesFrom, let tasks = JSONByteReader.arrayInHalves(reader.bytes, leaving: placeholder, elementBytes: elementBytes, task) { return tasks }
                guard let tasks = reader.array(task) else { return nil }
                reader.skipWhitespace()
                return reader.atEnd ? tasks : nil
            }
            // One object per line.
            while true {
                reader.skipWhitespace()
                if reader.atEnd { return tasks }
                let start = reader.index
                // One object on one line, as the other path reads them.
                guard let task = task(&reader),
                      !reader.bytes[start..<reader.index].contains(UInt8(ascii: "\n")) else { return nil }
                tasks.append(task)
                // The rest of the line must be blank.
                while !reader.atEnd, reader.bytes[reader.index] != UInt8(ascii: "\n") {
                    guard [0x20, 0x09, 0x0D].contains(reader.bytes[reader.index]) else { return nil }
                    reader.index += 1
                }
            }
        }
    }

    /// The attributes read as one string each (the mapped ones but tags and
    /// annotations, and the dates), by slot: a task's strings are an array,
    /// not a dictionary (one hash per key instead of four).
    private static let stringKeys: [String] = TaskwarriorTask.mapped.union(TaskwarriorTask.dateAttributes)
        .subtracting(["tags", "annotations"]).sorted()
    private static let slots: [String: Int] = Dictionary(uniqueKeysWithValues: stringKeys.enumerated().map { ($1, $0) })
    private static let slot = (uuid: slots["uuid"]!, description: slots["description"]!, status: slots["status"]!,
                               priority: slots["priority"]!, project: slots["project"]!)
    private static let dateSlots: [(key: String, slot: Int)] = TaskwarriorTask.dateAttributes.sorted().map { ($0, slots[$0]!) }
    /// Bits of `seen` for the two keys without a string slot.
    private static let tagsBit = 62, annotationsBit = 63

    /// One task object, or nil.
    private static func task(_ r: inout JSONByteReader) -> TaskwarriorTask? {
        guard r.take("{") else { return nil }
        var strings = [String?](repeating: nil, count: stringKeys.count)
        var tags: [String]?
        var annotations: [TaskwarriorTask.Annotation]?
        var other: [String: String] = [:]
        // Keys met: slotted ones as bits, the rest by name (a key given
        // twice refuses the file).
        var seen: UInt64 = 0
        var otherKeys: Set<String> = []
        r.skipWhitespace()
        if !r.take("}") {
            while true {
                r.skipWhitespace()
                guard let key = r.string() else { return nil }
                let bit = key == "tags" ? tagsBit : key == "annotations" ? annotationsBit : slots[key]
                if let bit {
                    guard seen & (1 << bit) == 0 else { return nil }
                    seen |= 1 << bit
                } else {
                    guard otherKeys.insert(key).inserted else { return nil }
                }
                r.skipWhitespace()
                guard r.take(":") else { return nil }
                r.skipWhitespace()
                switch bit {
                case tagsBit?:
                    guard let list = r.stringArray() else { return nil }
                    tags = list
                case annotationsBit?:
                    guard let list = r.array(annotation) else { return nil }
                    annotations = list
                case let slot?:
                    guard let s = r.string() else { return nil }
                    strings[slot] = s
                case nil where TaskwarriorTask.computed.contains(key):
                    guard skipValue(&r) != nil else { return nil }
                case nil:
                    guard let text = keptText(&r, key: key) else { return nil }
                    other[key] = text
                }
                r.skipWhitespace()
                if r.take(",") { continue }
                guard r.take("}") else { return nil }
                break
            }
        }
        guard let uuidText = strings[slot.uuid], let uuid = TaskID(uuidText),
              let description = strings[slot.description],
              let status = strings[slot.status].flatMap(TaskwarriorTask.Status.init(rawValue:)) else { return nil }
        var dates: [String: Int64] = [:]
        for (key, slot) in dateSlots {
            guard let text = strings[slot] else { continue }
            guard let millis = TaskwarriorDate.parse(text) else { return nil }
            dates[key] = millis
        }
        var t = TaskwarriorTask(uuid: uuid, description: description, status: status, dates: dates,
                                priority: strings[slot.priority], project: strings[slot.project])
        if let tags { t.tags = tags }
        if let annotations { t.annotations = annotations }
        for (key, text) in other { t.other[key] = text }
        return t
    }

    /// `{"entry": …, "description": …}`, those two keys in any order and no
    /// other (the other path ignores others; refusing them is the safe side).
    private static func annotation(_ r: inout JSONByteReader) -> TaskwarriorTask.Annotation? {
        guard r.take("{") else { return nil }
        var entry: Int64?
        var text: String?
        for i in 0..<2 {
            r.skipWhitespace()
            if i == 1 { guard r.take(",") else { return nil }; r.skipWhitespace() }
            guard let key = r.string() else { return nil }
            r.skipWhitespace()
            guard r.take(":") else { return nil }
            r.skipWhitespace()
            guard let value = r.string() else { return nil }
            switch key {
            case "entry" where entry == nil: entry = TaskwarriorDate.parse(value)
            case "description" where text == nil: text = value
            default: return nil
            }
        }
        r.skipWhitespace()
        guard r.take("}"), let entry, let text else { return nil }
        return TaskwarriorTask.Annotation(entry: entry, description: text)
    }

    /// A kept attribute's compact JSON text (see the contract).
    private static func keptText(_ r: inout JSONByteReader, key: String) -> String? {
        let start = r.index
        guard let range = skipValue(&r) else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: r.bytes[range])
        if bytes.first == UInt8(ascii: "\""), bytes.dropFirst().dropLast().allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var number = JSONByteReader(bytes: r.bytes, index: start)
        if number.integer() != nil, number.index == range.upperBound {
            return String(decoding: bytes, as: UTF8.self)
        }
        if let whole = wholeNumber(bytes) { return whole }
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) else { return nil }
        return try? TaskwarriorReader.jsonText(value, key: key, fail: { TaskInputError($0) })
    }

    /// A number written with a fraction of zeros only — `60.000000`, how
    /// Taskwarrior writes a numeric UDA — as `JSONSerialization` writes it
    /// back: its integer part (at most 15 digits, exact in a double; not -0).
    private static func wholeNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let integer = bytes[..<dot]
        let digits = integer.first == UInt8(ascii: "-") ? integer.dropFirst() : integer[...]
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              digits.first != UInt8(ascii: "0") || (digits.count == 1 && integer.count == 1),
              dot + 1 < bytes.count, bytes[(dot + 1)...].allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
        return String(decoding: integer, as: UTF8.self)
    }

    /// Skips one JSON value of any kind; its byte range, or nil when it is
    /// not well formed as far as this scan can tell (``JSONSerialization``
    /// still judges what is kept through it).
    private static func skipValue(_ r: inout JSONByteReader) -> Range<Int>? {
        let start = r.index
        guard !r.atEnd else { return nil }
        switch r.bytes[r.index] {
        case UInt8(ascii: "\""):
            r.index += 1
            while r.index < r.bytes.count {
                let b = r.bytes[r.index]
                r.index += 1
                if b == UInt8(ascii: "\\") { r.index += 1; continue }
                if b == UInt8(ascii: "\"") { return start..<r.index }
                if b < 0x20 { return nil }
            }
            return nil
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let object = r.bytes[r.index] == UInt8(ascii: "{")
            r.index += 1
            r.skipWhitespace()
            if r.take(object ? "}" : "]") { return start..<r.index }
            while true {
                r.skipWhitespace()
                if object {
                    guard r.string() != nil else { return nil }
                    r.skipWhitespace()
                    guard r.take(":") else { return nil }
                    r.skipWhitespace()
                }
                guard skipValue(&r) != nil else { return nil }
                r.skipWhitespace()
                if r.take(",") { continue }
                return r.take(object ? "}" : "]") ? start..<r.index : nil
            }
        default:
            while !r.atEnd {
                switch r.bytes[r.index] {
                case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    r.index += 1
                default:
                    return r.index > start ? start..<r.index : nil
                }
            }
            return r.index > start ? start..<r.index : nil
        }
    }
}
