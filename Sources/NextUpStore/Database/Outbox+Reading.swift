import NextUpCore

extension Outbox {
    /// Reads a `changes` column in exactly the form ``entriesJSON(_:)``
    /// writes — `[{"f":…,"v":…,"h":…,"r":…},…]`, those keys in that order, no
    /// white space — on UTF-8 bytes. Nil for anything else (rows written by
    /// an older nextup through JSONEncoder, whose key order varies), which
    /// ``decode(task:changes:)`` then reads with JSONDecoder. An upload reads
    /// every outbox row: JSONDecoder took 57% of the first sync of 100,000
    /// tasks.
    ///
    /// Contract: when not nil, the result equals what the JSONDecoder path
    /// gives for the same text (entries with an unknown field or a malformed
    /// replica id are dropped the same way).
    static func decodeWritten(task: TaskID, changes: String) -> [FieldChange]? {
        var text = changes
        return text.withUTF8 { bytes -> [FieldChange]? in
            var reader = ByteReader(bytes: bytes)
            guard reader.take("[") else { return nil }
            var out: [FieldChange] = []
            if reader.take("]") { return reader.atEnd ? out : nil }
            while true {
                guard reader.take(#"{"f":"#), let f = reader.string(),
                      reader.take(#","v":"#), let v = reader.value(),
                      reader.take(#","h":"#), let h = reader.integer(),
                      reader.take(#","r":"#), let r = reader.string(),
                      reader.take("}") else { return nil }
                if let field = TaskField(rawValue: f), let replica = ReplicaID(r) {
                    out.append(FieldChange(task: task, field: field, value: v,
                                           version: Version(timestamp: HybridTimestamp(rawValue: h), replica: replica)))
                }
                if reader.take(",") { continue }
                return reader.take("]") && reader.atEnd ? out : nil
            }
        }
    }

    /// A cursor over the bytes of one `changes` column.
    private struct ByteReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        var atEnd: Bool { i == bytes.count }

        mutating func take(_ literal: StaticString) -> Bool {
            let n = literal.utf8CodeUnitCount
            guard i + n <= bytes.count else { return false }
            let start = literal.utf8Start
            for k in 0..<n where bytes[i + k] != start[k] { return false }
            i += n
            return true
        }

        mutating func integer() -> Int64? {
            let negative = i < bytes.count && bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var value: Int64 = 0
            var digits = 0
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
                let d = Int64(bytes[i] - UInt8(ascii: "0"))
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
                guard !o1, !o2 else { return nil }
                value = s
                digits += 1
                i += 1
            }
            return digits > 0 ? value : nil
        }

        mutating func value() -> FieldValue? {
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "\""): return string().map(FieldValue.string)
            case UInt8(ascii: "n"): return take("null") ? .null : nil
            case UInt8(ascii: "t"): return take("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return take("false") ? .bool(false) : nil
            default: return integer().map(FieldValue.int)
            }
        }

        /// A JSON string with the escapes ``JSONBytes`` writes; nil for others.
        mutating func string() -> String? {
            guard take("\"") else { return nil }
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                switch b {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard i < bytes.count else { return nil }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        // Only the \u00xx control characters JSONBytes writes.
                        guard i + 4 <= bytes.count, bytes[i] == UInt8(ascii: "0"), bytes[i + 1] == UInt8(ascii: "0"),
                              let hi = hex(bytes[i + 2]), let lo = hex(bytes[i + 3]), hi < 2 else { return nil }
                        out.append(hi << 4 | lo)
                        i += 4
                    default: return nil
                    }
                case 0..<0x20: return nil
                default: out.append(b)
                }
            }
            return nil
        }

        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
    }
}
