import Foundation

/// The database files this process has open.
///
/// Why it exists: closing *any* descriptor of a file drops every `fcntl` lock
/// the process holds on that file — SQLite's included. Opening an
/// already-open store must therefore never open and close the file outside
/// SQLite (as the header check does), or another process that exits believes
/// it is the last user, checkpoints and deletes the WAL, and this process's
/// later writes are lost.
final class OpenStores: @unchecked Sendable {
    static let shared = OpenStores()
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    /// Whether `path` is open in this process now.
    func isOpen(_ path: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return counts[path, default: 0] > 0
    }

    /// One of the paths open now (for a message about a failure that does
    /// not name its store).
    var anyOpenPath: String? {
        lock.lock(); defer { lock.unlock() }
        return counts.keys.sorted().first
    }

    func retain(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        counts[path, default: 0] += 1
    }

    func release(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        counts[path, default: 0] -= 1
        if counts[path] == 0 { counts.removeValue(forKey: path) }
    }
}
