import NextUpCore

/// The peer log's lines and markers end with a checksum of themselves.
extension JSONText {
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
