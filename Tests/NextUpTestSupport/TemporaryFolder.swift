import Foundation

/// A fresh folder under the system temp dir, removed on deinit.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL
    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nextup-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }
}
