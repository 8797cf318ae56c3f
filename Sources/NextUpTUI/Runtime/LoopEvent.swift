/// Everything that wakes the UI's one loop (``EventLoop``), typed. Keys and
/// resizes come from the terminal, ticks from the loop's own timeout, the rest
/// from background threads through a ``LoopInbox``; ``AppRuntime/handle(_:)``
/// consumes them all.
public enum LoopEvent: Equatable, Sendable {
    /// A key was pressed.
    case key(Key)
    /// The terminal changed size.
    case resize
    /// The store folder changed: maybe another connection committed (another
    /// process, or the sync engine). The runtime reloads when the store's
    /// change token says so.
    case storeChanged
    /// The peer folder changed (a sync cycle follows).
    case peerFolderChanged
    /// The sync engine reported: a cycle ended, or its status changed.
    /// `changedStore` when the cycle merged or uploaded (then the lists are
    /// reloaded whatever the change token says).
    case syncFinished(changedStore: Bool)
    /// Watching the store folder failed (the reason) or works again (nil).
    /// While it fails, every tick checks the store's change token instead.
    case watchProblem(String?)
    /// SIGINT (Ctrl-C), SIGTERM or SIGHUP arrived.
    case signal(Int32)
    /// The clock moved on (the loop's timeout: ages, highlights, messages).
    case tick

    /// The event for a key read from the terminal (``Key/resize`` is a resize).
    public init(key: Key) {
        self = key == .resize ? .resize : .key(key)
    }
}
