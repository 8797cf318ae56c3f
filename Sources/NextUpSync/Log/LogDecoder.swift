import Foundation
import NextUpCore

/// The result of decoding a run of complete lines.
public struct LogScan: Sendable {
    /// The good records, in file order.
    public var records: [LogRecord] = []
    /// For each record, the absolute offset just past its line (its newline):
    /// a safe cursor once that record and those before it are merged.
    public var recordEnds: [Int64] = []
    /// Every damaged line or field met, in file order.
    public var issues: [LogIssue] = []
    /// The absolute offset just past the last complete line decoded: where the
    /// next read of this file starts.
    public var end: Int64
    /// The offset of the first line (in this file, from where its reading
    /// started) with a change dated beyond the sane future of this machine's
    /// clock (``LogDecoder/notAfter``): a cursor stops there, so that the
    /// line is read again once this machine's clock allows it. Nil: none.
    public var heldBack: Int64?

    public init(end: Int64) { self.end = end }
}

/// Decodes log lines. Never throws and never stops at a bad line: each line
/// is verified on its own (UTF-8, length, checksum, then shape), so a damaged
/// line costs only itself.
public struct LogDecoder {
    /// The file being read (for issues).
    public let file: String
    /// The replica whose log this is: the owner of shortened versions.
    public let owner: ReplicaID
    private let json = JSONDecoder()
    /// Whether lines in the written form are read on bytes (``readWritten(_:)``)
    /// before falling back to `JSONDecoder`. Off only in tests, to compare.
    var readsWrittenForm = true
    private let replicas = ReplicaCache()
    /// The latest version timestamp accepted (the sane future, see
    /// ``HybridClock/saneFutureLimit(now:)``); a field with a later one is
    /// refused as damaged. Nil: no limit.
    public let notAfter: HybridTimestamp?

    public init(file: String, owner: ReplicaID, notAfter: HybridTimestamp? = nil) {
        self.file = file
        self.owner = owner
        self.notAfter = notAfter
        replicas.known[owner.rawValue] = owner
    }

    // MARK: Header

    /// Finds and decodes the header at the start of a file.
    ///
    /// - Parameter prefix: the file's first bytes (up to ``LogFormat/maxHeaderLength``).
    /// - Returns: the header and the offset just past its line, or why the file
    ///   is not a log this code can read.
    public static func header(in prefix: some Collection<UInt8>, file: String) -> Result<(LogHeader, Int64), LogIssue> {
        let bytes = Array(prefix)
        func fail(_ kind: LogIssue.Kind) -> Result<(LogHeader, Int64), LogIssue> { .failure(LogIssue(file: file, offset: nil, kind: kind)) }
        if bytes.isEmpty { return fail(.emptyFile) }
        guard let newline = bytes.firstIndex(of: 0x0A) else {
            return fail(bytes.count >= LogFormat.maxHeaderLength ? .notALog("no header line") : .notALog("the header line is incomplete"))
        }
        let line = bytes[..<newline]
        guard String(validating: line, as: UTF8.self) != nil else { return fail(.notALog("header is not valid UTF-8")) }
        guard let wire = try? JSONDecoder().decode(WireHeader.self, from: Data(line)) else { return fail(.notALog("header is not JSON")) }
        guard wire.format == LogFormat.name else { return fail(.notALog("format is not \(LogFormat.name)")) }
        guard let version = wire.version, version >= 1 else { return fail(.notALog("no format version")) }
        if version > LogFormat.version { return fail(.newerVersion(version)) }
        guard verifiedChecksum(line) else { return fail(.notALog("header checksum mismatch")) }
        guard let replica = wire.replica.flatMap(ReplicaID.init), replica.rawValue == wire.replica else { return fail(.notALog("no valid replica id")) }
        guard let generation = wire.generation, !generation.isEmpty, generation.count <= 100 else { return fail(.notALog("no generation")) }
        let previous = wire.previous_replica.flatMap(ReplicaID.init)
        var header = LogHeader(replica: replica, generation: generation, created: wire.created ?? 0, previousReplica: previous, version: version)
        header.machine = wire.machine.flatMap(MachineName.parse)
        return .success((header, Int64(newline + 1)))
    }

    // MARK: Lines

    /// Decodes every complete line in `bytes`, which start at absolute offset
    /// `offset` on a line boundary. Bytes after the last newline are left for a
    /// later read (``LogScan/end`` stops before them).
    public func scan(_ bytes: some RandomAccessCollection<UInt8>, at offset: Int64) -> LogScan {
        let buffer = Array(bytes)
        var result = LogScan(end: offset)
        var lineStart = 0
        while let newline = buffer[lineStart...].firstIndex(of: 0x0A) {
            decodeLine(buffer[lineStart..<newline], at: offset + Int64(lineStart), into: &result)
            lineStart = newline + 1
            result.end = offset + Int64(lineStart)
        }
        return result
    }

    /// Decodes one line (without its newline), appending a record or issues.
    public func decodeLine(_ line: ArraySlice<UInt8>, at offset: Int64, into result: inout LogScan) {
        func issue(_ kind: LogIssue.Kind) { result.issues.append(LogIssue(file: file, offset: offset, kind: kind)) }
        if line.isEmpty || line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { return }
        if line.count > LogFormat.maxLineLength { return issue(.lineTooLong(bytes: Int64(line.count))) }
        guard Self.isValidUTF8(line) else { return issue(.invalidUTF8) }
        guard Self.verifiedChecksum(line) else { return issue(.checksumMismatch) }
        let taskText: String
        let pairs: [(name: String, pair: WirePair)]
        let notes: WireNotes
        if readsWrittenForm, let written = Self.readWritten(line) {
            (taskText, pairs, notes) = written
        } else {
            guard let wire = try? json.decode(WireRecord.self, from: Data(line)) else { return issue(.malformed("not a task change")) }
            taskText = wire.task
            pairs = wire.set.map { (name: $0.key, pair: $0.value) }
            notes = WireNotes(seen: wire.seen ?? [:], via: wire.via, machine: wire.machine, merged: wire.merged, at: wire.at)
        }
        guard let task = TaskID(taskText), task.rawValue == taskText else { return issue(.malformed("invalid task id")) }
        // The pairs are taken in the order given (the file's, or a
        // dictionary's); what depends on an order is made independent of it:
        // the issues are reported by field name, the changes kept in field
        // order (sorted only when not already: the writer writes them so).
        var changes: [FieldChange] = []
        changes.reserveCapacity(pairs.count)
        var fieldIssues: [(name: String, kind: LogIssue.Kind)] = []
        var next = 0
        for (name, pair) in pairs {
            guard let field = Self.knownField(name, from: &next) ?? TaskField(rawValue: TaskText.normalized(name)) else {
                fieldIssues.append((name, .invalidField("unknown field \"\(Sanitized.short(name))\" in task \(task.short)")))
                continue
            }
            let version = pair.ownerTimestamp.map { Version(timestamp: HybridTimestamp(rawValue: $0), replica: owner) }
                ?? pair.version.flatMap(parseVersion)
            guard var value = pair.value, let version else {
                fieldIssues.append((name, .invalidField("field \(name) of task \(task.short) has no valid value and version")))
                continue
            }
            // Text in one spelling (``TaskText/normalized(_:)``), whatever the writer's.
            if case .string(let text) = value { value = .string(TaskText.normalized(text)) }
            guard field.accepts(value) else {
                fieldIssues.append((name, .invalidField("field \(name) of task \(task.short) has an invalid value")))
                continue
            }
            if let notAfter, version.timestamp > notAfter {
                fieldIssues.append((name, .aheadOfClock("field \(name) of task \(task.short) is dated more than a year ahead of this machine's clock")))
                if result.heldBack == nil { result.heldBack = offset }
                continue
            }
            var change = FieldChange(task: task, field: field, value: value, version: version)
            if !notes.seen.isEmpty || notes.via != nil {
                let seen: ChangeNote.Seen? = notes.seen[name].flatMap { text in text.isEmpty ? .nothing : parseVersion(text).map { .version($0) } }
                let origin = notes.via?.origin(of: name)
                if seen != nil || origin != nil { change.note = ChangeNote(origin: origin, seen: seen) }
            }
            changes.append(change)
        }
        if fieldIssues.count > 1 { fieldIssues.sort { $0.name < $1.name } }
        for (_, kind) in fieldIssues { issue(kind) }
        if pairs.isEmpty { return issue(.malformed("no field changes")) }
        if !changes.isEmpty {
            if !changes.indices.dropFirst().allSatisfy({ changes[$0 - 1].field < changes[$0].field }) { changes.sort { $0.field < $1.field } }
            var record = LogRecord(task: task, changes: changes)
            record.machine = notes.machine.flatMap(MachineName.parse)
            if let merged = notes.merged, let at = notes.at {
                var marks: [ReplicaID: Int64] = [:]
                for (text, through) in merged { if let replica = ReplicaID(text), replica.rawValue == text { marks[replica] = through } }
                record.delivery = LogRecord.Delivery(merged: marks, at: at)
            }
            result.records.append(record)
            result.recordEnds.append(offset + Int64(line.count) + 1)
        }
    }

    /// At `"<16 hex digits>"` (the owner's version, as the writer spells
    /// it): the number they make, the reader moved past them. Nil, the
    /// reader unmoved, at anything else (then read as a string).
    static func ownerVersion(_ reader: inout JSONByteReader) -> Int64? {
        let start = reader.index
        guard start + 18 <= reader.bytes.count, reader.bytes[start] == UInt8(ascii: "\""),
              reader.bytes[start + 17] == UInt8(ascii: "\""),
              let raw = hexDigits(UnsafeBufferPointer(rebasing: reader.bytes[(start + 1)..<(start + 17)])),
              raw <= UInt64(Int64.max) else { return nil }
        reader.index = start + 18
        return Int64(raw)
    }

    /// The known field named `name`, looked for in the field table from
    /// position `next` on (the writer lists a record's fields in table
    /// order, so each is found at once, without hashing its name); `next`
    /// moves past it. Nil when it is not there: ask `TaskField(rawValue:)`.
    static func knownField(_ name: String, from next: inout Int) -> TaskField? {
        let table = FieldSpec.table
        var i = next
        while i < table.count {
            if table[i].field.rawValue == name {
                next = i + 1
                return table[i].field
            }
            i += 1
        }
        return nil
    }

    /// Reads a line (checksum already verified) in exactly the form
    /// ``LogRecord/encodedLine(owner:)`` writes —
    /// `{"task":"…","set":{"<field>":[<value>,"<version>"],…},"crc":"…"}`,
    /// no white space, each field once — on its bytes. Nil for any other
    /// spelling, which ``decodeLine(_:at:into:)`` then reads with
    /// `JSONDecoder`. A first sync reads every line of a peer's log, and
    /// `JSONDecoder` alone would take it past its budget.
    ///
    /// Contract: when not nil, the task text and the pairs are what the
    /// JSONDecoder path gives for the same line (in file order rather than
    /// a dictionary's; the caller sorts them).
    static func readWritten(_ line: ArraySlice<UInt8>) -> (task: String, pairs: [(name: String, pair: WirePair)], notes: WireNotes)? {
        line.withUnsafeBufferPointer { bytes in
            var reader = JSONByteReader(bytes: bytes)
            guard reader.take(#"{"task":"#), let task = reader.string(), reader.take(#","set":{"#) else { return nil }
            var pairs: [(name: String, pair: WirePair)] = []
            pairs.reserveCapacity(FieldSpec.table.count)
            if !reader.take("}") {
                while true {
                    guard let name = reader.string(), reader.take(":["), let value = reader.value(), reader.take(",") else { return nil }
                    // The owner's own version, `"<16 hex digits>"`, read as
                    // its number without a string in between.
                    var pair: WirePair
                    if let raw = Self.ownerVersion(&reader) {
                        pair = WirePair(value: value, version: nil)
                        pair.ownerTimestamp = raw
                    } else {
                        guard let version = reader.string() else { return nil }
                        pair = WirePair(value: value, version: version)
                    }
                    guard reader.take("]") else { return nil }
                    // A repeated key: JSONDecoder's choice is not ours to guess.
                    if pairs.contains(where: { $0.name == name }) { return nil }
                    pairs.append((name: name, pair: pair))
                    if reader.take(",") { continue }
                    guard reader.take("}") else { return nil }
                    break
                }
            }
            // The history members, in the order the writer writes them.
            var notes = WireNotes()
            if reader.take(#","seen":{"#), !reader.take("}") {
                while true {
                    guard let name = reader.string(), reader.take(":"), let held = reader.string() else { return nil }
                    notes.seen[name] = held
                    if reader.take(",") { continue }
                    guard reader.take("}") else { return nil }
                    break
                }
            }
            if reader.take(#","via":"#) {
                // One origin for all; the per-field form is left to JSONDecoder.
                guard let origin = reader.string() else { return nil }
                notes.via = .all(origin)
            }
            if reader.take(#","machine":"#) {
                guard let machine = reader.string() else { return nil }
                notes.machine = machine
            }
            if reader.take(#","merged":{"#) {
                var merged: [String: Int64] = [:]
                if !reader.take("}") {
                    while true {
                        guard let replica = reader.string(), reader.take(":"), case .int(let through)? = reader.value() else { return nil }
                        merged[replica] = through
                        if reader.take(",") { continue }
                        guard reader.take("}") else { return nil }
                        break
                    }
                }
                guard reader.take(#","at":"#), case .int(let at)? = reader.value() else { return nil }
                notes.merged = merged
                notes.at = at
            }
            // What follows is the checksum member, already verified.
            guard reader.index == bytes.count - JSONText.checksumSuffixLength else { return nil }
            return (task, pairs, notes)
        }
    }

    /// Parses `<16 hex>` (a version by the owner) or `<16 hex>@<replica>`.
    /// Replica ids are parsed once per decoder and remembered: most lines
    /// carry the same few.
    private func parseVersion(_ text: String) -> Version? {
        var text = text
        return text.withUTF8 { bytes -> Version? in
            guard bytes.count >= 16, let raw = Self.hexDigits(UnsafeBufferPointer(rebasing: bytes[..<16])), raw <= UInt64(Int64.max) else { return nil }
            let timestamp = HybridTimestamp(rawValue: Int64(raw))
            if bytes.count == 16 { return Version(timestamp: timestamp, replica: owner) }
            guard bytes[16] == UInt8(ascii: "@") else { return nil }
            let replicaText = String(decoding: UnsafeBufferPointer(rebasing: bytes[17...]), as: UTF8.self)
            if let known = replicas.known[replicaText] { return Version(timestamp: timestamp, replica: known) }
            guard let replica = ReplicaID(replicaText), replica.rawValue == replicaText else { return nil }
            replicas.known[replicaText] = replica
            return Version(timestamp: timestamp, replica: replica)
        }
    }

    /// The value of hex digits as `UInt64(_:radix: 16)` reads them: digits
    /// of either case are read in place; anything else (a sign, say) is
    /// left to that initializer.
    static func hexDigits(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
        HexDigits.value(digits) ?? UInt64(String(decoding: digits, as: UTF8.self), radix: 16)
    }

    /// Whether a line ends with a checksum member matching the rest of it.
    static func verifiedChecksum(_ line: some Collection<UInt8>) -> Bool {
        if let verified = line.withContiguousStorageIfAvailable({ verifiedChecksum(UnsafeRawBufferPointer($0)) }) { return verified }
        return Array(line).withUnsafeBytes { verifiedChecksum($0) }
    }

    /// The same, on the line's bytes in place (no copy of the line, nor of
    /// the object the checksum covers).
    static func verifiedChecksum(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let suffixLength = JSONText.checksumSuffixLength
        guard bytes.count > suffixLength + 1 else { return false }
        let suffixStart = bytes.count - suffixLength
        let prefix = ",\"crc\":\"".utf8
        guard bytes[suffixStart..<(suffixStart + prefix.count)].elementsEqual(prefix),
              bytes[bytes.count - 2] == UInt8(ascii: "\""), bytes[bytes.count - 1] == UInt8(ascii: "}") else { return false }
        let hexBytes = bytes[(suffixStart + prefix.count)..<(bytes.count - 2)]
        guard let expected = UInt32(String(decoding: hexBytes, as: UTF8.self), radix: 16) else { return false }
        // The object as it reads closed without the checksum member: the bytes before it, then `}`.
        return CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[..<suffixStart]), then: UInt8(ascii: "}")) == expected
    }

    /// Whether `line` is valid UTF-8: a line of ASCII (the usual one) is
    /// known so by looking at eight bytes at a time; any other is validated
    /// as a `String` is.
    static func isValidUTF8(_ line: ArraySlice<UInt8>) -> Bool {
        let ascii = line.withUnsafeBytes { bytes -> Bool in
            var i = 0
            var any: UInt64 = 0
            while i + 8 <= bytes.count {
                any |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            while i < bytes.count {
                any |= UInt64(bytes[i])
                i += 1
            }
            return any & 0x8080_8080_8080_8080 == 0
        }
        return ascii || String(validating: line, as: UTF8.self) != nil
    }
}

/// Replica ids already parsed by one decoder (used from one thread).
private final class ReplicaCache {
    var known: [String: ReplicaID] = [:]
}

/// Short, printable excerpts of untrusted names for messages.
enum Sanitized {
    static func short(_ text: String) -> String {
        let visible = String(text.unicodeScalars.prefix(40).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return text.unicodeScalars.count > 40 ? visible + "…" : visible
    }
}

private struct WireHeader: Decodable {
    var format: String?
    var version: Int?
    var replica: String?
    var generation: String?
    var created: Int64?
    var previous_replica: String?
    var machine: String?
}

struct WireRecord: Decodable {
    var task: String
    var set: [String: WirePair]
    var seen: [String: String]?
    var via: WireVia?
    var machine: String?
    var merged: [String: Int64]?
    var at: Int64?
}

/// The history members of a line (``LogRecord``'s wire form), as read.
struct WireNotes {
    var seen: [String: String] = [:]
    var via: WireVia?
    var machine: String?
    var merged: [String: Int64]?
    var at: Int64?
}

/// `"via"`: one origin for every change of the line, or one per field.
enum WireVia: Decodable {
    case all(String)
    case fields([String: String])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let one = try? c.decode(String.self) { self = .all(one) } else { self = .fields(try c.decode([String: String].self)) }
    }

    func origin(of field: String) -> ChangeOrigin? {
        switch self {
        case .all(let text): ChangeOrigin(rawValue: text)
        case .fields(let map): map[field].flatMap(ChangeOrigin.init(rawValue:))
        }
    }
}

/// `[value, version]`, decoded leniently so one bad field does not hide the others.
struct WirePair: Decodable {
    var value: FieldValue?
    var version: String?
    /// The version's timestamp when it is the owner's, `"<16 hex>"`, read
    /// on bytes (``LogDecoder/readWritten(_:)``); ``version`` is then nil.
    var ownerTimestamp: Int64?

    init(value: FieldValue?, version: String?) {
        self.value = value
        self.version = version
    }

    init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        value = try container.decode(Lenient.self).value
        version = try container.decode(Lenient.self).value?.stringValue
        if !container.isAtEnd { value = nil }
    }
}

private struct Lenient: Decodable {
    var value: FieldValue?
    init(from decoder: Decoder) throws { value = try? FieldValue(from: decoder) }
}
