/// A snapshot of the background sync's state, for the status bar.
public struct SyncStatus: Sendable, Equatable {
    /// When the last cycle finished without error (ms since the epoch).
    public var lastSuccessMillis: Int64?
    /// Other replicas whose logs the last cycle found.
    public var peersSeen = 0
    /// Local changes not yet in this replica's log.
    public var pendingLocalChanges = 0
    /// Why the last cycle failed, in plain words (nil after a success), e.g.
    /// "peer folder /mnt/share does not exist (is it mounted?); …".
    public var lastError: String?
    /// Set when a peer's changes carry timestamps far ahead of this machine's
    /// clock (they are merged anyway), e.g. "nextup-….log is 2 h ahead".
    public var skewWarning: String?
    /// Set while watching the folders fails (the watcher restarts itself;
    /// until it succeeds, changes are noticed late or only on request).
    public var watchProblem: String?
    /// Whether a cycle is running right now.
    public var isSyncing = false
    /// What the last cycle repaired, re-published or skipped, in plain words
    /// (``SyncReport/notices``): damaged files are never silent. Kept until
    /// a full cycle or one with notices of its own.
    public var notices: [String] = []
    /// Cycles finished (with or without error) since the engine started:
    /// what tells a requested cycle's end from an earlier one.
    public var cyclesFinished = 0
    /// What the last successful cycle did, in one line
    /// ("uploaded 1 change; merged 2 changes into 1 task from 1 peer").
    public var lastSummary: String?
    /// What the last successful cycle uploaded and merged (field changes).
    public var lastUploaded = 0
    public var lastMerged = 0

    public init() {}

    /// Equal apart from the time of the last success.
    func sameApartFromTime(_ other: SyncStatus) -> Bool {
        var a = self, b = other
        a.lastSuccessMillis = nil
        b.lastSuccessMillis = nil
        a.cyclesFinished = 0
        b.cyclesFinished = 0
        return a == b
    }
}
