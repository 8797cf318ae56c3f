import Foundation
import NextUpCore

/// Reads an import file — an array of flat task objects — on its bytes, for
/// the common case: any key order and white space, each key at most once,
/// only the keys of ``TaskJSON``, each value of its key's type or `null`.
/// Returns nil for anything else (an unknown or repeated key, a fraction,
/// a `\u` escape other than `\u00xx`, a missing title, not JSON), and the
/// caller then decodes the file with `JSONDecoder`, whose error messages the
/// command reports. JSONDecoder took 10% of an import of 100,000 tasks.
///
/// Contract: when not nil, the result equals `JSONDecoder`'s for the same bytes.
enum TaskJSONReader {
    static func read(_ data: Data) -> [TaskJSON]? {
        read(data, leaving: TaskJSON(title: "")) { $0 }
    }

    /// ``read(_:)`` with each record handed to `each` as soon as it is read
    /// (on the thread reading its half), and `each`'s results kept instead:
    /// an import plans each record while its memory is fresh. `placeholder`
    /// is what moving a result leaves behind. When nil, `each` may have
    /// been called for some records (their results are thrown away).
    static func read<T>(_ data: Data, leaving placeholder: T, _ each: (consuming TaskJSON) -> T) -> [T]? {
        data.withUnsafeBytes { raw -> [T]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            if bytes.count >= JSONByteReader.halvesFrom, let tasks = readInHalves(bytes, leaving: placeholder, each) { return tasks }
            var reader = JSONByteReader(bytes: bytes)
            reader.skipWhitespace()
            guard let tasks = reader.array({ reader in readTask(&reader).map { each($0) } }) else { return nil }
            reader.skipWhitespace()
            return reader.atEnd ? tasks : nil
        }
    }

    /// The file read as two halves at once (``JSONByteReader/arrayInHalves(_:leaving:elementBytes:_:)``), or nil.
    static func readInHalves(_ bytes: UnsafeBufferPointer<UInt8>) -> [TaskJSON]? {
        readInHalves(bytes, leaving: TaskJSON(title: "")) { $0 }
    }

    /// ``readInHalves(_:)`` with each record handed to `each` (see ``read(_:leaving:_:)``).
    static func readInHalves<T>(_ bytes: UnsafeBufferPointer<UInt8>, leaving placeholder: T, _ each: (consuming TaskJSON) -> T) -> [T]? {
        JSONByteReader.arrayInHalves(bytes, leaving: placeholder, elementBytes: elementBytes) { reader in readTask(&reader).map { each($0) } }
    }

    /// About the fewest bytes `nextup export` writes for a task (every key,
    /// an id and two times), for the room an array is made with.
    private static let elementBytes = 256

    /// The keys, as bits, to catch repeats.
    private static let keys: [String: Int] = [
        "id": 0, "title": 1, "notes": 2, "urgency": 3, "importance": 4, "duration": 5, "category": 6, "due": 7,
        "done": 8, "next_up": 9, "deleted": 10, "created": 11, "modified": 12, "completed_at": 13, "source": 14,
        "external_id": 15, "tags": 16, "versions": 17,
    ]
    /// ``keys`` by their bit, as bytes: a key is matched on the file's bytes.
    private static let keyBytes: [[UInt8]] = keys.sorted { $0.value < $1.value }.map { Array($0.key.utf8) }

    /// The bit of the key the reader is on (read past), or nil for any other
    /// key. A key without escapes is matched in place (no String made and
    /// hashed per key: 14 per task), any other through ``keys``. The key of
    /// bit `expected` is tried first: an export writes its keys in the order
    /// of their bits, so each is usually the one after the last.
    private static func key(_ reader: inout JSONByteReader, expected: Int) -> Int? {
        guard let bytes = reader.plainStringBytes() else { return reader.string().flatMap { keys[$0] } }
        // Compared as memory (every name is non-empty, so an equal count has bytes).
        func matches(_ name: [UInt8]) -> Bool {
            name.count == bytes.count && name.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        }
        if expected < keyBytes.count, matches(keyBytes[expected]) { return expected }
        return keyBytes.firstIndex(where: matches)
    }

    /// The JSON keys this reader reads on bytes (anything else goes to JSONDecoder), for the field-table test.
    static var readKeys: Set<String> { Set(keys.keys) }

    /// `{ "…": "…", … }` with distinct keys, or nil.
    private static func readStringObject(_ reader: inout JSONByteReader) -> [String: String]? {
        guard reader.take("{") else { return nil }
        var out: [String: String] = [:]
        reader.skipWhitespace()
        if reader.take("}") { return out }
        while true {
            reader.skipWhitespace()
            guard let key = reader.string(), out[key] == nil else { return nil }
            reader.skipWhitespace()
            guard reader.take(":") else { return nil }
            reader.skipWhitespace()
            guard let value = reader.string() else { return nil }
            out[key] = value
            reader.skipWhitespace()
            if reader.take(",") { continue }
            return reader.take("}") ? out : nil
        }
    }

    private static func readTask(_ reader: inout JSONByteReader) -> TaskJSON? {
        guard reader.take("{") else { return nil }
        var task = TaskJSON(title: "")
        var seen = 0
        var last = -1
        reader.skipWhitespace()
        if reader.take("}") { return nil }  // no title: JSONDecoder says which
        while true {
            reader.skipWhitespace()
            guard let key = key(&reader, expected: last + 1), seen & (1 << key) == 0 else { return nil }
            seen |= 1 << key
            last = key
            reader.skipWhitespace()
            guard reader.take(":") else { return nil }
            reader.skipWhitespace()
            if key == 16 || key == 17 {
                if key == 16 {
                    guard let tags = reader.stringArray() else { return nil }
                    task.tags = tags
                } else {
                    guard let versions = readStringObject(&reader) else { return nil }
                    task.versions = versions
                }
                reader.skipWhitespace()
                if reader.take(",") { continue }
                guard reader.take("}") else { return nil }
                return seen & (1 << 1) != 0 ? task : nil
            }
            guard let value = reader.value() else { return nil }
            switch key {
            case 1:
                guard case .string(let s) = value else { return nil }
                task.title = s
            case 4, 5:
                let n: Int?
                switch value {
                case .null: n = nil
                case .int(let i): n = Int(i)
                default: return nil
                }
                if key == 4 { task.importance = n } else { task.duration = n }
            case 8, 9, 10:
                let b: Bool?
                switch value {
                case .null: b = nil
                case .bool(let v): b = v
                default: return nil
                }
                if key == 8 { task.done = b } else if key == 9 { task.nextUp = b } else { task.deleted = b }
            default:
                let s: String?
                switch value {
                case .null: s = nil
                case .string(let v): s = v
                default: return nil
                }
                switch key {
                case 0: task.id = s
                case 2: task.notes = s
                case 3: task.urgency = s
                case 6: task.category = s
                case 7: task.due = s
                case 11: task.created = s
                case 12: task.modified = s
                case 13: task.completedAt = s
                case 14: task.source = s
                default: task.externalID = s
                }
            }
            reader.skipWhitespace()
            if reader.take(",") { continue }
            guard reader.take("}") else { return nil }
            return seen & (1 << 1) != 0 ? task : nil
        }
    }
}
