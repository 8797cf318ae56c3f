/// Tuning of the sync cycle. The defaults suit real use; tests shrink them.
public struct SyncOptions: Sendable, Equatable {
    /// Compact this replica's log once it is larger than both this and
    /// ``compactionFactor`` times its size right after its last rewrite.
    public var compactionMinimumBytes: Int64 = 4 * 1024 * 1024
    public var compactionFactor: Int64 = 4
    /// Local changes (outbox records) uploaded per append.
    public var uploadBatch: Int = 20_000

    public init(compactionMinimumBytes: Int64 = 4 * 1024 * 1024, compactionFactor: Int64 = 4, uploadBatch: Int = 20_000) {
        self.compactionMinimumBytes = compactionMinimumBytes
        self.compactionFactor = compactionFactor
        self.uploadBatch = uploadBatch
    }
}
