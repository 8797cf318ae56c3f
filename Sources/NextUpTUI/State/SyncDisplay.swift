/// What the status bar knows about syncing, in the UI's own terms (the
/// runtime translates the sync engine's status into this).
public struct SyncDisplay: Equatable, Sendable {
    /// Whether a peer folder is configured at all.
    public var enabled: Bool
    public var isSyncing: Bool = false
    public var lastSuccessMillis: Int64?
    public var peers: Int = 0
    public var pendingLocalChanges: Int = 0
    /// A problem in plain words ("peer folder missing: /mnt/share").
    public var problem: String?
    public var skewWarning: String?
    /// Syncing only with the phone bridge's vdir (no peer folder): the
    /// status bar says "vdir" instead of counting peers.
    public var vdirOnly = false
    /// What the last cycle skipped or repaired, in plain words (a damaged
    /// line in a peer's log, a file from a newer nextup).
    public var notices: [String] = []
    /// Cycles finished so far, and what the last successful one did.
    public var cyclesFinished = 0
    public var summary: String?

    public init(enabled: Bool, isSyncing: Bool = false, lastSuccessMillis: Int64? = nil, peers: Int = 0,
                pendingLocalChanges: Int = 0, problem: String? = nil, skewWarning: String? = nil) {
        self.enabled = enabled
        self.isSyncing = isSyncing
        self.lastSuccessMillis = lastSuccessMillis
        self.peers = peers
        self.pendingLocalChanges = pendingLocalChanges
        self.problem = problem
        self.skewWarning = skewWarning
    }

    public static let off = SyncDisplay(enabled: false)
}
