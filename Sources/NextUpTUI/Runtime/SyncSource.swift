/// The sync engine as the UI sees it: a background worker that can be asked
/// to sync now, reports its state, and signals when it changed something.
public protocol SyncSource: AnyObject {
    /// Starts the worker; `onChange` is called on its thread whenever the
    /// status or the store changed.
    func start(onChange: @escaping @Sendable () -> Void) throws
    func display() -> SyncDisplay
    /// How many times the worker has signalled so far. It writes through this
    /// process's own database connection, which `PRAGMA data_version` does
    /// not see, so the UI reloads whenever this number moves.
    var signals: Int { get }
    func requestSync()
    func stop()
}
