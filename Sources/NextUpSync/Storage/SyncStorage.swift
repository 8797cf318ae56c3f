import NextUpCore
import NextUpStore

/// What the sync engine needs from the store, and nothing more: the narrow
/// edge between the engine and the database. ``TaskStoreSyncStorage`` is the
/// real one, ``InMemorySyncStorage`` the fake; one contract suite runs against
/// both. Contract:
/// - ``merge(_:cursor:)`` is one transaction: each field ends at the greatest
///   version (``Merge``), the hybrid clock moves past every timestamp merged,
///   nothing is added to the pending local changes, and the cursor (when
///   given) is stored with it — all or nothing.
/// - ``pendingLocalChanges(limit:)`` returns local changes not yet recorded as
///   uploaded, oldest first; ``recordUpload(through:ownLog:)`` forgets those up
///   to a sequence number and stores the own-log state, in one transaction.
/// - ``saveOwnLogState(_:)`` and ``saveCursor(_:forPeerFile:)`` store where
///   sync stands when nothing was uploaded or merged; saving a value already
///   held writes nothing.
/// - Cursors and own-log state live with the data: a new store has none.
/// - ``adoptNewReplicaID()`` keeps every task and version, makes later local
///   writes use a new id, and forgets the own-log state.
/// - The remembered peer-folder id lives with the data too: a new store has
///   none; it is kept until replaced.
public protocol SyncStorage: AnyObject, Sendable {
    func replicaID() throws -> ReplicaID
    func pendingLocalChanges(limit: Int) throws -> PendingLocalChanges
    func pendingLocalChangeCount() throws -> Int
    /// The sequence number of the newest local change (0 when none is pending).
    func newestLocalChangeSeq() throws -> Int64
    /// Forgets the pending local changes up to and including `seq` (they are
    /// safe in this replica's log) and stores the own-log state after that
    /// write, in one transaction.
    func recordUpload(through seq: Int64, ownLog: OwnLogState) throws
    /// Stores this replica's own-log state (checked, repaired or rewritten
    /// without uploading anything).
    func saveOwnLogState(_ ownLog: OwnLogState) throws
    func ownLogState() throws -> OwnLogState?
    /// Every stored cursor, by peer file name.
    func cursors() throws -> [String: PeerCursor]
    func merge(_ changes: [FieldChange], cursor: (file: String, cursor: PeerCursor)?) throws -> TaskStore.RemoteMergeResult
    /// Runs `body`, handing it a `merge` with ``merge(_:cursor:)``'s contract
    /// whose calls all belong to one transaction: all or nothing together.
    /// For a whole log read in one go (a one-shot first sync), where one
    /// transaction writes far less than one per batch.
    func mergeAtOnce(_ body: (_ merge: SyncStorageMerge) throws -> Void) throws
    /// Stores how far a peer file has been read, when reading it merged
    /// nothing (a skipped line, a new generation, a torn tail).
    func saveCursor(_ cursor: PeerCursor, forPeerFile file: String) throws
    /// Every task, in batches, from one consistent view.
    func forEachTaskBatch(_ body: ([TaskItem]) throws -> Void) throws
    /// The field versions held for these tasks (those the store has).
    func versions(of tasks: [TaskID]) throws -> [TaskID: [TaskField: Version]]
    func adoptNewReplicaID() throws -> ReplicaID
    /// The id of the peer folder this store syncs through (from the folder's
    /// marker file); nil until ``rememberPeerFolder(id:)`` was called.
    func peerFolderID() throws -> String?
    /// Remembers the peer folder's id; survives ``adoptNewReplicaID()``.
    func rememberPeerFolder(id: String) throws
    /// This machine's name, as its log tells other machines; nil: none.
    func machineName() throws -> String?
    /// What a snapshot of the own log carries for `tasks`, one log record
    /// per group: at least every register (with its note); the real store
    /// adds every earlier change its history holds.
    func snapshot(of tasks: [TaskItem]) throws -> [[FieldChange]]
    /// A task whose registers written by this replica can carry a line that
    /// says something else (a delivery mark): the task of this replica's
    /// last change. Nil: none (no delivery marks are written).
    func carrierTask() throws -> TaskItem?
}

/// A merge as ``SyncStorage/merge(_:cursor:)`` takes it.
public typealias SyncStorageMerge = (_ changes: [FieldChange], _ cursor: (file: String, cursor: PeerCursor)?) throws -> TaskStore.RemoteMergeResult

extension SyncStorage {
    /// A storage without a machine name (a fake) says none.
    public func machineName() throws -> String? { nil }

    /// A storage without delivery marks (a fake).
    public func carrierTask() throws -> TaskItem? { nil }

    /// A storage without a history (a fake): the registers.
    public func snapshot(of tasks: [TaskItem]) throws -> [[FieldChange]] {
        tasks.compactMap { task in task.allChanges.isEmpty ? nil : task.allChanges }
    }

    /// A storage without transactions of its own (a fake) merges each
    /// batch on its own.
    public func mergeAtOnce(_ body: (_ merge: SyncStorageMerge) throws -> Void) throws {
        try body { try merge($0, cursor: $1) }
    }
}

/// A batch of local changes waiting for upload.
public struct PendingLocalChanges: Sendable, Equatable {
    public var changes: [FieldChange]
    /// The sequence number of the newest change in the batch (nil: empty).
    public var through: Int64?

    public init(changes: [FieldChange], through: Int64?) {
        self.changes = changes
        self.through = through
    }
}

/// Where this replica stands with its own log: which file generation it
/// writes, and how many bytes of it it accounts for.
public struct OwnLogState: Codable, Hashable, Sendable {
    public var replica: String
    public var generation: String
    /// The size of the file after this replica's last write.
    public var end: Int64
    /// The file's identity after that write (inode).
    public var identity: UInt64
    /// The size right after the last full rewrite (for compaction).
    public var snapshotSize: Int64
    /// The header's `previous_replica`, kept for appends that start a file.
    public var previousReplica: String?
    /// The file's modification stamp after that write (``PeerFileInfo/modified``):
    /// when it changed but the size did not, the file was written in place
    /// by someone else and its lines are verified. Nil in older states.
    public var modified: Int64?
    /// The machine name this generation of the log last said (a header or a
    /// line's `machine`); nil: none yet.
    public var machine: String?
    /// The delivery mark this generation of the log last said
    /// (``LogRecord/Delivery/merged``, by replica id); nil: none yet.
    public var merged: [String: Int64]?

    public init(replica: String, generation: String, end: Int64, identity: UInt64, snapshotSize: Int64, previousReplica: String? = nil, modified: Int64? = nil) {
        self.modified = modified
        self.replica = replica
        self.generation = generation
        self.end = end
        self.identity = identity
        self.snapshotSize = snapshotSize
        self.previousReplica = previousReplica
    }
}

/// How far this replica has read one peer file: a generation and the byte
/// offset just past the last complete line merged.
public struct PeerCursor: Codable, Hashable, Sendable {
    public var generation: String
    public var offset: Int64
    /// The file's identity when the cursor was stored (lets an unchanged file
    /// be skipped without reading it).
    public var identity: UInt64
    /// The checksum (8 hex digits) of the line that ends at ``offset``: when
    /// the file no longer has it there, the file was rewritten under the same
    /// generation (restored from a backup) and is read again from its start.
    /// Nil in cursors stored before this existed.
    public var tail: String?
    /// Set when lines before ``offset`` were skipped as damaged: the file is
    /// read again from its start when it is replaced (a whole copy may have
    /// arrived). Nil otherwise.
    public var damaged: Bool?
    /// Set when the cursor stopped before a line dated beyond the sane
    /// future of this machine's clock (``LogScan/heldBack``): the lines
    /// from ``offset`` on are read again at every sync until it can take
    /// them. Nil otherwise.
    public var heldBack: Bool?
    /// The file's size when the cursor was stored: while size and identity
    /// stand, nothing new can be read (a torn last line included).
    public var size: Int64?
    /// This machine's clock (ms) when it last saw the file change (another
    /// size, identity or generation than the cursor before): how long the
    /// log has been silent as this machine saw it, whatever its mtime says.
    public var seen: Int64?
    /// The newest version timestamp (physical ms, by its writer's clock)
    /// among the writer's own changes read from the file, or its header's
    /// time when later.
    public var newest: Int64?
    /// The writer's machine name, as its log last said it (nil: it never did).
    public var machine: String?
    /// What the writer's delivery marks said of this replica's log, oldest
    /// first (at most 8): pairs of [the newest of this replica's versions it
    /// had merged (ms), when it said so (its clock, ms)].
    public var mergedMine: [[Int64]]?
    /// The writer's last delivery mark whole: for each log it merges (by
    /// replica id), the newest of that replica's versions it had merged
    /// (ms). What history retention reads (``HistoryRetention``).
    public var merged: [String: Int64]?

    public init(generation: String, offset: Int64, identity: UInt64, tail: String? = nil, damaged: Bool? = nil, heldBack: Bool? = nil,
                size: Int64? = nil, seen: Int64? = nil, newest: Int64? = nil, machine: String? = nil, mergedMine: [[Int64]]? = nil,
                merged: [String: Int64]? = nil) {
        self.machine = machine
        self.mergedMine = mergedMine
        self.merged = merged
        self.generation = generation
        self.offset = offset
        self.identity = identity
        self.tail = tail
        self.damaged = damaged
        self.heldBack = heldBack
        self.size = size
        self.seen = seen
        self.newest = newest
    }
}
