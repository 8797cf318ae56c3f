import Foundation

/// A fresh folder under the system temporary directory, removed on deinit.
final class TemporaryFolder: @unchecked Sendable {
    let url: URL

    init(_ label: String = "sync") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("nextup-\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder (not created).
    func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// A new subfolder.
    func folder(_ name: String) throws -> URL {
        let sub = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        return sub
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
