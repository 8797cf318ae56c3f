import Foundation
import NextUpCore
import NextUpStore

/// The real ``SyncStorage``: the shared SQLite store. Cursors and own-log state
/// are JSON values in the store's `meta` table (`sync.cursor.<file>`,
/// `sync.own-log`), written in the same transactions as what they describe.
public final class TaskStoreSyncStorage: SyncStorage {
    public let store: TaskStore
    static let cursorPrefix = TaskStore.syncKeyPrefix + "cursor."
    static let ownLogKey = TaskStore.syncKeyPrefix + "own-log"

    public init(store: TaskStore) { self.store = store }

    public func replicaID() throws -> ReplicaID { try store.replicaID() }

    public func pendingLocalChanges(limit: Int) throws -> PendingLocalChanges {
        var changes: [FieldChange] = []
        var through: Int64?
        for record in try store.outbox(after: 0, limit: limit) {
            changes += record.changes
            through = record.seq
        }
        return PendingLocalChanges(changes: changes, through: through)
    }

    public func pendingLocalChangeCount() throws -> Int { try store.outboxCount(after: 0) }

    public func newestLocalChangeSeq() throws -> Int64 { try store.newestOutboxSeq() }

    public func recordUpload(through seq: Int64, ownLog: OwnLogState) throws {
        try store.forgetUploadedChanges(through: seq, savingSyncState: [Self.ownLogKey: try Self.encode(ownLog)])
    }

    public func saveOwnLogState(_ ownLog: OwnLogState) throws {
        try store.saveSyncState([Self.ownLogKey: try Self.encode(ownLog)])
    }

    public func ownLogState() throws -> OwnLogState? {
        try store.syncState(prefix: Self.ownLogKey)[Self.ownLogKey].flatMap { Self.decode($0) }
    }

    public func cursors() throws -> [String: PeerCursor] {
        var out: [String: PeerCursor] = [:]
        for (key, value) in try store.syncState(prefix: Self.cursorPrefix) {
            if let cursor: PeerCursor = Self.decode(value) { out[String(key.dropFirst(Self.cursorPrefix.count))] = cursor }
        }
        return out
    }

    public func merge(_ changes: [FieldChange], cursor: (file: String, cursor: PeerCursor)?) throws -> TaskStore.RemoteMergeResult {
        try store.mergeRemote(changes, state: try Self.state(cursor))
    }

    /// One store transaction for every merge `body` makes (``TaskStore/mergeRemoteAtOnce(_:)``).
    public func mergeAtOnce(_ body: (_ merge: SyncStorageMerge) throws -> Void) throws {
        try store.mergeRemoteAtOnce { merge in
            try withoutActuallyEscaping(merge) { merge in
                try body { changes, cursor in try merge(changes, try Self.state(cursor)) }
            }
        }
    }

    /// The sync-state entry of a cursor.
    private static func state(_ cursor: (file: String, cursor: PeerCursor)?) throws -> [String: String?] {
        var state: [String: String?] = [:]
        if let cursor { state[cursorPrefix + cursor.file] = try encode(cursor.cursor) }
        return state
    }

    public func saveCursor(_ cursor: PeerCursor, forPeerFile file: String) throws {
        try store.saveSyncState([Self.cursorPrefix + file: try Self.encode(cursor)])
    }

    public func forEachTaskBatch(_ body: ([TaskItem]) throws -> Void) throws {
        try store.forEachTaskBatch(size: 1_000, body)
    }

    public func versions(of tasks: [TaskID]) throws -> [TaskID: [TaskField: Version]] {
        try store.versions(of: tasks)
    }

    public func adoptNewReplicaID() throws -> ReplicaID {
        try store.adoptNewReplicaID(forgetting: Self.ownLogKey)
    }

    public func peerFolderID() throws -> String? { try store.rememberedPeerFolderID() }

    public func rememberPeerFolder(id: String) throws { try store.rememberPeerFolderID(id) }

    public func machineName() throws -> String? { try store.machineName() }

    public func snapshot(of tasks: [TaskItem]) throws -> [[FieldChange]] { try store.snapshot(of: tasks) }

    public func carrierTask() throws -> TaskItem? { try store.taskOfLastOwnChange() }

    /// Sorted keys: the same state must encode to the same text every time,
    /// because an unchanged state is recognised by comparing the text (and
    /// `JSONEncoder`'s key order otherwise varies from one encode to the next).
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ text: String) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
