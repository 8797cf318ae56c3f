import Foundation

/// The value of one field, in the few shapes fields take. Encodes to the
/// natural JSON type (`null`, string, integer, boolean; ``json(_:)`` as the
/// JSON it holds).
public enum FieldValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case null
    case string(String)
    case int(Int64)
    case bool(Bool)
    /// Any other JSON value — a number with a fraction or an exponent (or
    /// beyond `Int64`), an array, an object — as its compact JSON text (keys
    /// sorted, numbers as `Double` writes them). Only opaque fields hold one
    /// (written by a newer nextup, or kept from an import): stored, merged,
    /// exported and passed on as it came.
    case json(String)

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .int(i) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let tree = try? c.decode(OpaqueJSON.self) { self = .json(tree.text) }
        else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a field value must be JSON")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .string(let s): try c.encode(s)
        case .int(let i): try c.encode(i)
        case .bool(let b): try c.encode(b)
        case .json(let text): try c.encode(try JSONDecoder().decode(OpaqueJSON.self, from: Data(text.utf8)))
        }
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var intValue: Int64? { if case .int(let i) = self { return i } else { return nil } }
    public var isNull: Bool { self == .null }

    public var description: String {
        switch self {
        case .null: return "null"
        case .string(let s): return s
        case .int(let i): return String(i)
        case .bool(let b): return String(b)
        case .json(let text): return text
        }
    }
}

/// Any JSON value, as a tree: how ``FieldValue/json(_:)`` is read and written
/// through `Codable`, and how its compact text is made.
private indirect enum OpaqueJSON: Codable {
    case null, bool(Bool), number(Double), string(String), array([OpaqueJSON]), object([String: OpaqueJSON])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([OpaqueJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: OpaqueJSON].self)) }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Compact JSON, keys in byte order, strings escaped as ``JSONText`` does.
    var text: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func append(to out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .number(let n):
            if n == n.rounded(), abs(n) < 1e15 { out += String(Int64(n)).utf8 } else { out += "\(n)".utf8 }
        case .string(let s): JSONText.appendString(s, to: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, element) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.append(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, key) in o.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                o[key]!.append(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
