import NextUpCore

/// The text form of a set of field versions, as the store keeps it: the task
/// row's `versions` column and each outbox entry (schema v5).
///
/// Format: comma-separated entries. `@<replica>` names the replica of the
/// entries after it; `<field>:<16 hex digits>` is one field's version — its
/// hybrid timestamp — under the replica named last. Entries are grouped by
/// replica (ascending) and ordered by field within a group, so most rows —
/// every field written by one replica — name their replica once:
/// `@6301bbfc-…,title:0000019a6b3c0001,notes:0000019a6b3c0001`.
///
/// Contract: ``decode(_:)`` gives back exactly what ``encode(_:)`` was given;
/// a malformed entry is skipped, never guessed at (a field entry before any
/// replica, a bad replica or timestamp). Field names may hold `:` and `@`
/// (tag registers like `tag:Work:x@y`) but never `,`. Stores of schema v1–v4
/// wrote `<field>:<16 hex>@<replica>` for every entry; ``decodeLegacy(_:)``
/// reads that form, for the v5 migration only.
enum VersionsColumn {
    static func encode(_ versions: [TaskField: Version]) -> String {
        let hex = hexDigits
        var out: [UInt8] = []
        out.reserveCapacity(40 + versions.count * 26)
        var current: ReplicaID?
        let sorted = versions.sorted { a, b in
            a.value.replica == b.value.replica ? a.key < b.key : a.value.replica < b.value.replica
        }
        for (field, version) in sorted {
            if version.replica != current {
                if !out.isEmpty { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "@"))
                out.append(contentsOf: version.replica.rawValue.utf8)
                current = version.replica
            }
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: field.rawValue.utf8)
            out.append(UInt8(ascii: ":"))
            let raw = UInt64(bitPattern: version.timestamp.rawValue)
            for shift in stride(from: 60, through: 0, by: -4) { out.append(hex[Int((raw >> UInt64(shift)) & 0xF)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses the column on UTF-8 bytes (every read of a task comes through
    /// here).
    static func decode(_ text: String) -> [TaskField: Version] {
        var out: [TaskField: Version] = [:]
        var text = text
        text.withUTF8 { bytes in
            var replica: ReplicaID?
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                defer { start = end + 1 }
                if bytes[start] == UInt8(ascii: "@"), end - start == 37,
                   let named = ReplicaID(String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)) {
                    // A replica id never holds ':', a field entry always does
                    // 17 bytes from its end: no entry is both.
                    replica = named
                    continue
                }
                let colon = end - 17
                guard let replica, colon > start, bytes[colon] == UInt8(ascii: ":"),
                      let raw = timestamp(bytes, colon + 1, end),
                      let field = field(UnsafeBufferPointer(rebasing: bytes[start..<colon]))
                else { continue }
                out[field] = Version(timestamp: HybridTimestamp(rawValue: raw), replica: replica)
            }
        }
        return out
    }

    /// The field named by `name`: a known field matched on its bytes (no
    /// string made, nothing hashed), any other through ``TaskField/init(rawValue:)``.
    private static func field(_ name: UnsafeBufferPointer<UInt8>) -> TaskField? {
        for (field, known) in knownNames where known.count == name.count && known.elementsEqual(name) { return field }
        return TaskField(rawValue: String(decoding: name, as: UTF8.self))
    }

    private static let knownNames: [(TaskField, [UInt8])] = TaskField.known.map { ($0, Array($0.rawValue.utf8)) }

    /// 16 hex digits in `bytes[start..<end]` as a non-negative timestamp.
    private static func timestamp(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
        guard end - start == 16 else { return nil }
        var raw: UInt64 = 0
        for i in start..<end {
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            raw = raw << 4 | UInt64(digit)
        }
        return raw <= UInt64(Int64.max) ? Int64(raw) : nil
    }

    /// The schema v1–v4 form, `<field>:<16 hex>@<replica>` per entry.
    static func decodeLegacy(_ text: String) -> [TaskField: Version] {
        var out: [TaskField: Version] = [:]
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                defer { start = end + 1 }
                // `field` may itself hold ':' and '@': the version is the 16
                // hex digits before the last '@' (replica ids have none).
                var at = end - 1
                while at > start && bytes[at] != UInt8(ascii: "@") { at -= 1 }
                let colon = at - 17
                guard colon > start, bytes[colon] == UInt8(ascii: ":"),
                      let raw = timestamp(bytes, colon + 1, at),
                      let replica = ReplicaID(String(decoding: UnsafeBufferPointer(rebasing: bytes[(at + 1)..<end]), as: UTF8.self)),
                      let field = TaskField(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<colon]), as: UTF8.self))
                else { continue }
                out[field] = Version(timestamp: HybridTimestamp(rawValue: raw), replica: replica)
            }
        }
        return out
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
