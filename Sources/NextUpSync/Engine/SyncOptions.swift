/// Tuning of the sync cycle. The defaults suit real use; tests shrink them.
public struct SyncOptions: Sendable, Equatable {
    /// Compact this replica's log once it is larger than both this and
    /// ``compactionFactor`` times its size right after its last rewrite.
    public var compactionMinimumBytes: Int64 = 4 * 1024 * 1024
    public var compactionFactor: Int64 = 4
    /// Local changes (outbox records) uploaded per append.
    public var uploadBatch: Int = 20_000
    /// Records merged per store transaction: keeps each transaction short, so
    /// a large reconcile never holds the store for long.
    public var mergeBatch: Int = 500
    /// Whether a peer log read from its start (a first sync) is merged in
    /// one store transaction (``SyncStorage/mergeAtOnce(_:)``) rather than
    /// one per ``mergeBatch``: into an empty store, the rows are then
    /// appended with the table's indexes built once at the end. The price:
    /// the store is held for the whole read.
    public var wholeLogInOneTransaction = false
    /// Records read per slice of the background engine's start-up reconcile
    /// (``SyncCycle/reconcileSlice(_:merged:)``): the engine releases the store and
    /// the sync lock after each slice, so a peer's new change waits for at
    /// most one slice.
    public var reconcileSliceRecords: Int = 1_000
    /// How often the background sync stat-polls the peer folder (for network
    /// file systems, where inotify sees nothing).
    public var pollIntervalMillis: Int64 = 3_000
    /// A peer's log silent for this long — unchanged as a replica saw it, and
    /// its writer's newest change that old by the writer's clock — is retired
    /// by the next replica that has merged all of it: that replica re-publishes the changes it
    /// still holds under the peer's id (with their versions) in its own log,
    /// then sets the log aside (``SyncCycle``), so logs of machines that are
    /// gone do not pile up. A peer that comes back rewrites its log from its
    /// store. Zero: never.
    public var retireLogsAfterMillis: Int64 = 180 * 86_400_000

    /// For a one-shot `nextup sync` (no UI on the connection): 10,000 records
    /// per transaction. Records of a reconcile land at random places in the
    /// store's B-trees, so each transaction rewrites most pages it touches
    /// into the WAL: fewer, larger transactions write far less. The price:
    /// another process's write waits for the current transaction.
    /// A log read from its start is merged in one transaction
    /// (``wholeLogInOneTransaction``).
    public static let oneShot: SyncOptions = {
        var options = SyncOptions(mergeBatch: 10_000)
        options.wholeLogInOneTransaction = true
        return options
    }()

    public init(compactionMinimumBytes: Int64 = 4 * 1024 * 1024, compactionFactor: Int64 = 4, uploadBatch: Int = 20_000, mergeBatch: Int = 500, pollIntervalMillis: Int64 = 3_000,
                retireLogsAfterMillis: Int64 = 180 * 86_400_000, reconcileSliceRecords: Int = 1_000) {
        self.reconcileSliceRecords = max(1, reconcileSliceRecords)
        self.retireLogsAfterMillis = retireLogsAfterMillis
        self.mergeBatch = max(1, mergeBatch)
        self.compactionMinimumBytes = compactionMinimumBytes
        self.compactionFactor = compactionFactor
        self.uploadBatch = uploadBatch
        self.pollIntervalMillis = pollIntervalMillis
    }
}
