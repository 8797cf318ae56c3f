import NextUpCore

/// Writes the little JSON the log needs, byte for byte deterministic: strings
/// are escaped per RFC 8259 (quote, backslash and control characters; every
/// other character is written as UTF-8).
enum JSONText {
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                let hex = Array("0123456789abcdef".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendRaw(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    static func appendValue(_ value: FieldValue, to out: inout [UInt8]) {
        switch value {
        case .null: appendRaw("null", to: &out)
        case .string(let s): appendString(s, to: &out)
        case .int(let i): appendRaw(String(i), to: &out)
        case .bool(let b): appendRaw(b ? "true" : "false", to: &out)
        }
    }

    /// Closes an object written without its final `}` by appending its
    /// checksum member: `,"crc":"<8 hex>"}`. The checksum covers the object
    /// as it would read closed without that member.
    static func sealWithChecksum(_ open: inout [UInt8]) {
        open.append(UInt8(ascii: "}"))
        let crc = CRC32.checksum(open)
        open.removeLast()
        appendRaw(",\"crc\":\"\(CRC32.hex(crc))\"}", to: &open)
    }

    /// The length of the checksum suffix `,"crc":"xxxxxxxx"}`.
    static let checksumSuffixLength = 18
}
