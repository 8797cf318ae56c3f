import Dispatch
import Foundation
import NextUpCore
import NextUpStore
import Synchronization

/// JSON output of tasks (DESIGN.md §4 task objects), the one writer of them:
/// a ``TaskJSON`` as `JSONEncoder` would write it with `[.prettyPrinted,
/// .sortedKeys, .withoutEscapingSlashes]` — every key present (unset is
/// `null`) but `extra`, `versions` and `next_up_key`, keys in byte order,
/// two-space indent.
///
/// Written by hand rather than through `JSONEncoder`, whose generic encoding
/// of each value cannot write a whole export within its budget
/// (docs/benchmarks.md); reading goes through `JSONDecoder` (``decodeTasks(_:)``).
enum JSONOutput {
    /// The array of `tasks` and a newline, as `export` and `list --json`
    /// write it, in pieces of up to 2,000 tasks to be written one after the
    /// other; with `versions` (one for each of `tasks`), each field's version
    /// too (`export`: a lossless backup). With `order`, the tasks at those
    /// positions, in that order (the list is not reordered first).
    static func pieces(_ tasks: [TaskItem], order: [Int]? = nil, versions: [StoredVersions]? = nil) -> Pieces {
        precondition(versions == nil || versions!.count == tasks.count, "one stored versions for each task")
        return Pieces(tasks: tasks, order: order, versions: versions)
    }

    /// ``pieces(_:order:versions:)``: a few pieces at a time are written on
    /// every core into buffers used again for the next few, each handed out
    /// before the next few are written (a whole export is never held at once).
    struct Pieces: Sequence {
        let tasks: [TaskItem], order: [Int]?, versions: [StoredVersions]?
        static let piece = 2_000, window = 8

        /// How many pieces there are.
        var count: Int { Swift.max(1, ((order?.count ?? tasks.count) + Self.piece - 1) / Self.piece) }

        func makeIterator() -> Iterator { Iterator(pieces: self) }

        struct Iterator: IteratorProtocol {
            let pieces: Pieces
            /// The pieces from `first` on, as written; the next one handed out is `buffers[handed]`.
            private var buffers: [[UInt8]] = [], first = 0, handed = 0

            init(pieces: Pieces) {
                self.pieces = pieces
            }

            mutating func next() -> [UInt8]? {
                if handed == buffers.count {
                    first += buffers.count
                    guard first < pieces.count else { return nil }
                    fill(Swift.min(Pieces.window, pieces.count - first))
                    handed = 0
                }
                defer { handed += 1 }
                return buffers[handed]
            }

            /// Writes the `count` pieces from `first` on into `buffers`.
            private mutating func fill(_ count: Int) {
                let (tasks, order, versions, total) = (pieces.tasks, pieces.order, pieces.versions, pieces.order?.count ?? pieces.tasks.count)
                let first = first, piece = Pieces.piece, pieceCount = pieces.count
                let written = Mutex(buffers)
                written.withLock { $0 += Array(repeating: [], count: Swift.max(0, count - $0.count)) }
                buffers = []
                DispatchQueue.concurrentPerform(iterations: count) { k in
                    var out: [UInt8] = []
                    written.withLock { swap(&out, &$0[k]) }
                    out.removeAll(keepingCapacity: true)
                    out.reserveCapacity(piece * (versions != nil ? 1_200 : 500))
                    let index = first + k
                    if index == 0 { out.append(UInt8(ascii: "[")) }
                    var replicas = StoredVersions.Replicas()
                    for i in index * piece..<Swift.min(total, (index + 1) * piece) {
                        out.append(contentsOf: i == 0 ? JSONOutput.firstElement : JSONOutput.nextElement)
                        let at = order?[i] ?? i
                        JSONOutput.write(tasks[at], versions: versions?[at].sortedByName(&replicas), indent: 2, to: &out)
                    }
                    if index == pieceCount - 1 { out.append(contentsOf: total == 0 ? "\n\n]\n".utf8 : "\n]\n".utf8) }
                    written.withLock { swap(&out, &$0[k]) }
                }
                buffers = written.withLock { all in
                    var mine: [[UInt8]] = []
                    swap(&mine, &all)
                    return Array(mine.prefix(count))
                }
            }
        }
    }

    private static let firstElement: [UInt8] = Array("\n  ".utf8)
    private static let nextElement: [UInt8] = Array(",\n  ".utf8)

    /// One task's object (`show --json`, `add --json`).
    static func string(_ task: TaskItem) -> String {
        var out: [UInt8] = []
        write(task, versions: nil, indent: 0, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The keys of a task object, in byte order (``keyNames``).
    private enum Key: Int, CaseIterable {
        case category, completedAt, created, deferDate, deleted, done, due, duration, externalID, extra, id
        case importance, modified, nextUp, nextUpKey, notes, occurrence, recur, source, tags, title, urgency, versions
    }

    private static let keyNames = [
        "category", "completed_at", "created", "defer", "deleted", "done", "due", "duration", "external_id", "extra", "id",
        "importance", "modified", "next_up", "next_up_key", "notes", "occurrence", "recur", "source", "tags", "title", "urgency", "versions",
    ]

    /// What goes before each key's value at each of the two depths an object
    /// is written at (alone, or in an array): the comma (the opening brace
    /// before the first key), the line break, the indent, the key and its colon.
    private static let keyPrefixes: [[[UInt8]]] = [0, 2].map { indent in
        zip(Key.allCases, keyNames).map { key, name in
            Array(((key == .category ? "{" : ",") + "\n" + String(repeating: " ", count: indent + 2) + "\"\(name)\" : ").utf8)
        }
    }

    /// `task`'s object (``TaskJSON/init(_:versions:)``), its closing brace
    /// `indent` (0 or 2) spaces in; with `versions` (``StoredVersions/sortedByName()``),
    /// its versions and `next_up_key` too, and its `modified` from them (the
    /// task need not hold its versions).
    static func write(_ task: TaskItem, versions entries: [(field: TaskField, version: Version)]?, indent: Int, to out: inout [UInt8]) {
        var t = TaskJSON(task)
        if let entries { t.modified = Timestamps.rfc3339(StoredVersions.newest(entries).millis) }
        let inner = indent + 2
        let prefixes = keyPrefixes[indent / 2]
        func spaces(_ n: Int) { out.append(contentsOf: Self.spaces[..<n]) }
        func key(_ key: Key) { out.append(contentsOf: prefixes[key.rawValue]) }
        func text(_ name: Key, _ value: String?) {
            key(name)
            if let value { JSONText.appendString(value, to: &out) } else { out.appendLiteral("null") }
        }
        func bool(_ name: Key, _ value: Bool?) {
            key(name)
            out.appendLiteral(value == true ? "true" : "false")
        }
        func number(_ name: Key, _ value: Int?) {
            key(name)
            if let value { out.append(contentsOf: String(value).utf8) } else { out.appendLiteral("null") }
        }
        /// An array (no `name`s) or an object of `count` elements, one a line.
        func collection(_ name: Key, _ open: StaticString, _ close: StaticString, _ count: Int,
                        _ element: (Int, inout [UInt8]) -> Void) {
            key(name)
            out.appendLiteral(open)
            out.append(UInt8(ascii: "\n"))
            for i in 0..<count {
                if i > 0 { out.appendLiteral(",\n") }
                spaces(inner + 2)
                element(i, &out)
            }
            out.append(UInt8(ascii: "\n"))
            spaces(inner)
            out.appendLiteral(close)
        }
        func named(_ name: String, _ out: inout [UInt8]) {
            JSONText.appendString(name, to: &out)
            out.appendLiteral(" : ")
        }

        text(.category, t.category)
        text(.completedAt, t.completedAt)
        text(.created, t.created)
        text(.deferDate, t.deferDate)
        bool(.deleted, t.deleted)
        bool(.done, t.done)
        text(.due, t.due)
        number(.duration, t.duration)
        text(.externalID, t.externalID)
        if let extra = t.extra {
            let entries = extra.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            collection(.extra, "{", "}", entries.count) { i, out in
                named(entries[i].key, &out)
                JSONText.appendValue(entries[i].value, to: &out)
            }
        }
        text(.id, t.id)
        number(.importance, t.importance)
        text(.modified, t.modified)
        bool(.nextUp, t.nextUp)
        if entries != nil, let position = task.nextUpPosition { text(.nextUpKey, position) }
        text(.notes, t.notes)
        text(.occurrence, t.occurrence)
        text(.recur, t.recur)
        text(.source, t.source)
        let tags = t.tags ?? []
        collection(.tags, "[", "]", tags.count) { i, out in JSONText.appendString(tags[i], to: &out) }
        text(.title, t.title)
        text(.urgency, t.urgency)
        if let entries {
            // As TaskJSON's `versions` holds them, without a string for each.
            collection(.versions, "{", "}", entries.count) { i, out in
                named(entries[i].field.rawValue, &out)
                out.append(UInt8(ascii: "\""))
                entries[i].version.appendEncoded(to: &out)
                out.append(UInt8(ascii: "\""))
            }
        }
        out.append(UInt8(ascii: "\n"))
        spaces(indent)
        out.append(UInt8(ascii: "}"))
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 16)

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
