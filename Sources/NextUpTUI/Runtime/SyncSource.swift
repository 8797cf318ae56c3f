/// The sync engine as the UI sees it: a background worker that can be asked
/// to sync now, reports its state, and posts loop events when something
/// happened.
public protocol SyncSource: AnyObject {
    /// Starts the worker; `post` is called on its thread with what it saw and
    /// did: ``LoopEvent/storeChanged`` and ``LoopEvent/peerFolderChanged``
    /// (its watcher is the process's only watcher of those folders),
    /// ``LoopEvent/syncFinished(changedStore:)``, ``LoopEvent/watchProblem(_:)``.
    func start(post: @escaping @Sendable (LoopEvent) -> Void) throws
    func display() -> SyncDisplay
    func requestSync()
    func stop()
}
