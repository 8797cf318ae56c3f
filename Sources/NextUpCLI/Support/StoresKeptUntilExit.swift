import Foundation
import NextUpStore

/// The stores a command opened (through ``CommandContext``), kept until the
/// command has returned, then closed by ``NextUpMain`` — and never
/// deallocated: the process exits right after.
///
/// Why: deallocating a store tears down GRDB's serial dispatch queue, and
/// disposing of a dispatch queue starts a worker thread, while GRDB's deinit
/// also sets up Foundation's `NotificationCenter` — a few tenths of a
/// millisecond of a 5 ms `nextup count`, a moment before the process exits.
/// What matters at the end is closing the connection (SQLite checkpoints and
/// removes the WAL when it is the last one), which ``closeAll()`` does as
/// deinit did.
final class StoresKeptUntilExit: @unchecked Sendable {
    static let shared = StoresKeptUntilExit()
    private let lock = NSLock()
    private var stores: [TaskStore] = []

    func keep(_ store: TaskStore) {
        lock.lock(); defer { lock.unlock() }
        stores.append(store)
    }

    /// Closes the connection of every kept store; the objects stay, unused.
    func closeAll() {
        lock.lock()
        let all = stores
        lock.unlock()
        for store in all { store.closeBeforeExit() }
    }
}
