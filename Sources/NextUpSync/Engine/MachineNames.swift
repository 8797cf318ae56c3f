import NextUpCore
import NextUpStore

/// Which machine wrote under which replica id, as their logs said it
/// (``PeerCursor/machine``), and this machine's own name: what the history
/// shows instead of replica ids.
public enum MachineNames {
    /// The names known to `store`: its own (``TaskStore/machineName()``) and
    /// every peer log's it has read. A replica whose log never said a name is
    /// absent (``label(_:in:)`` shows its id).
    public static func known(_ store: TaskStore) throws -> [ReplicaID: String] {
        try known(store, cursors: TaskStoreSyncStorage(store: store).cursors())
    }

    /// The same, from `cursors` already read.
    static func known(_ store: TaskStore, cursors: [String: PeerCursor]) throws -> [ReplicaID: String] {
        var names: [ReplicaID: String] = [:]
        for (file, cursor) in cursors {
            if case .log(let replica) = PeerFileName.classify(file), let machine = cursor.machine { names[replica] = machine }
        }
        names[try store.replicaID()] = try store.machineName()
        return names
    }

    /// The name of `replica` in `names`, else "machine" and the first eight
    /// characters of its id.
    public static func label(_ replica: ReplicaID, in names: [ReplicaID: String]) -> String {
        names[replica] ?? "machine \(replica.rawValue.prefix(8))"
    }
}
