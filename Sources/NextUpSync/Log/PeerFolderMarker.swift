import Foundation
import NextUpCore

/// The peer folder's identity (DESIGN.md §5): a small file,
/// ``fileName``, written once by the first replica that syncs through the
/// folder and never changed. Every store remembers the id it found there, so a
/// folder without it — an unmounted share's empty mount point, a folder
/// replaced by another — is told apart from the folder it synced with.
///
/// On disk: one self-checking JSON line,
/// `{"format":"nextup-folder","id":"<uuid>","created":<ms>,"crc":"…"}`.
public struct PeerFolderMarker: Hashable, Sendable {
    /// The marker's name in the peer folder (never read as a log).
    public static let fileName = "nextup-folder.id"
    static let format = "nextup-folder"

    public let id: String
    /// When the marker was written, ms since the epoch (informational).
    public let created: Int64

    public init(id: String = UUID().uuidString.lowercased(), created: Int64) {
        self.id = id
        self.created = created
    }

    /// The marker as one self-checking line, with its newline.
    public func encodedLine() -> [UInt8] {
        var out: [UInt8] = []
        JSONText.appendRaw("{\"format\":", to: &out)
        JSONText.appendString(Self.format, to: &out)
        JSONText.appendRaw(",\"id\":", to: &out)
        JSONText.appendString(id, to: &out)
        JSONText.appendRaw(",\"created\":\(created)", to: &out)
        JSONText.sealWithChecksum(&out)
        out.append(0x0A)
        return out
    }

    /// Reads a marker file's bytes; nil when they are not an intact marker.
    public static func decode(_ bytes: [UInt8]) -> PeerFolderMarker? {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let line = bytes[..<newline]
        guard LogDecoder.verifiedChecksum(line),
              let wire = try? JSONDecoder().decode(Wire.self, from: Data(line)),
              wire.format == format, let id = wire.id, !id.isEmpty, id.count <= 100 else { return nil }
        return PeerFolderMarker(id: id, created: wire.created ?? 0)
    }

    private struct Wire: Decodable {
        var format: String?
        var id: String?
        var created: Int64?
    }
}
