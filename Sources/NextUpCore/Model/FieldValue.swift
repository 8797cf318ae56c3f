/// The value of one field, in the few shapes fields take. Encodes to the
/// natural JSON type (`null`, string, integer, boolean).
public enum FieldValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case null
    case string(String)
    case int(Int64)
    case bool(Bool)

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .int(i) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a field value must be null, a string, an integer or a boolean")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .string(let s): try c.encode(s)
        case .int(let i): try c.encode(i)
        case .bool(let b): try c.encode(b)
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
        }
    }
}
