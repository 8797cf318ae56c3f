import Foundation
import NextUpCore
import NextUpStore

/// What a command that changed tasks calls before it exits, when a peer
/// folder is configured: appends the change to this replica's log
/// (DESIGN.md §5). A failure is a warning — the change is safe in the store
/// and the next sync publishes it.
public enum PeerPublisher {
    /// Publishes pending local changes; returns a one-line warning on failure,
    /// nil on success.
    @discardableResult
    public static func publish(store: TaskStore, peerFolder: URL, clock: any PhysicalClock = SystemClock()) -> String? {
        do {
            try SyncEngine(store: store, peerFolder: peerFolder, clock: clock).publishLocalChanges()
            return nil
        } catch {
            return "warning: the change is saved but was not published to the peer folder: \(SyncError.describe(error))"
        }
    }
}
