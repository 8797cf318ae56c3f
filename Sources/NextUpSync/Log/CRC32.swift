import CZlib

/// CRC-32 (IEEE 802.3), the checksum that makes every log line self-checking,
/// computed by zlib.
enum CRC32 {
    /// The checksum of `bytes`.
    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        if let crc = bytes.withContiguousStorageIfAvailable({ update(0, UnsafeRawBufferPointer($0)) }) { return crc }
        return Array(bytes).withUnsafeBytes { update(0, $0) }
    }

    /// The checksum of `bytes` followed by `last` (a line's object closed
    /// by its `}`, without copying it).
    static func checksum(_ bytes: UnsafeRawBufferPointer, then last: UInt8) -> UInt32 {
        withUnsafeBytes(of: last) { update(update(0, bytes), $0) }
    }

    /// The checksum `crc` continued over `bytes`.
    private static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        return UInt32(crc32(uLong(crc), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    /// Eight lowercase hex digits.
    static func hex(_ value: UInt32) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }
}
