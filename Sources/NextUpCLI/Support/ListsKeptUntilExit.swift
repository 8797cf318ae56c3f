import Foundation
import NextUpCore
import NextUpStore

/// The whole lists a one-shot command read (`list`, `next`, `export`: up to
/// every task of the store), handed over once written and never freed: the
/// process exits right after, and the kernel takes their memory back at once.
///
/// Why: freeing 100,000 tasks one by one — each task's strings, its versions
/// dictionary, the array — was a twentieth of `list --json` and more of
/// `export`, spent after the output was complete.
final class ListsKeptUntilExit: @unchecked Sendable {
    static let shared = ListsKeptUntilExit()
    private let lock = NSLock()
    private var lists: [[TaskItem]] = []
    private var rows: [TaskRowBuffer] = []

    func keep(_ tasks: [TaskItem]) {
        lock.lock(); defer { lock.unlock() }
        lists.append(tasks)
    }

    /// `export`'s rows (one buffer, freed at once anyway; kept so that the
    /// views written from it stay valid to the end).
    func keep(_ buffer: TaskRowBuffer) {
        lock.lock(); defer { lock.unlock() }
        rows.append(buffer)
    }
}
