import Foundation

extension VdirFolder {
    /// The marker file that names a vdir (hidden, not `.ics`: vdirsyncer
    /// and the bridge list only `*.ics` files).
    public static let markerName = ".nextup-vdir"

    /// The vdir's identity: the id its marker holds, nil when it has none
    /// (or an unreadable one). The bridge's memory belongs to this id, so it
    /// follows the folder through symlinks, moves and any spelling of its
    /// path, and a folder without the marker never reads another's memory.
    public func identity() -> String? {
        guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(Self.markerName).path),
              let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, parts[0] == "nextup-vdir", let id = UUID(uuidString: String(parts[1])) else { return nil }
        return id.uuidString.lowercased()
    }

    /// Gives the vdir a new identity (its marker, written atomically) and
    /// returns it; one another process gave it meanwhile is kept.
    public func makeIdentity() throws -> String {
        let id = UUID().uuidString.lowercased()
        guard try write("nextup-vdir \(id)\n", to: Self.markerName, ifStill: nil) else {
            if let made = identity() { return made }
            throw BridgeError.unreadable(url.path, "its marker \(Self.markerName) changed while nextup wrote it")
        }
        return id
    }
}
