import NextUpCore

/// What a name in the peer folder is, as far as sync is concerned.
public enum PeerFileKind: Hashable, Sendable {
    /// `nextup-<replica>.log`: the log of that replica.
    case log(ReplicaID)
    /// A file-sync tool's conflict copy of a replica's log: read as extra
    /// input, merged, then renamed aside. Syncthing:
    /// `nextup-<id>.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.log`; Dropbox and
    /// Nextcloud: `nextup-<id> (… conflicted copy …).log`.
    case conflictCopy(of: ReplicaID)
    /// Named like a log (`nextup-….log`) but not one this code understands.
    case unrecognisedLog
    /// Anything else: other files, file-sync tools' temporary files
    /// (`.syncthing.*.tmp`, `~syncthing~*.tmp`), our own temporary files,
    /// conflict copies already merged (`….merged`). Never read.
    case ignored
}

/// Classifies names found in the peer folder.
public enum PeerFileName {
    static let prefix = "nextup-"
    static let suffix = ".log"
    /// Appended to a conflict copy once it has been merged and re-published.
    public static let mergedSuffix = ".merged"

    public static func classify(_ name: String) -> PeerFileKind {
        if isTemporary(name) { return .ignored }
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return .ignored }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard middle.count >= 36, let replica = ReplicaID(String(middle.prefix(36))), replica.rawValue == String(middle.prefix(36)) else {
            return .unrecognisedLog
        }
        let rest = middle.dropFirst(36)
        if rest.isEmpty { return .log(replica) }
        if rest.hasPrefix(".sync-conflict-") { return .conflictCopy(of: replica) }
        if rest.hasPrefix(" ("), rest.hasSuffix(")"), rest.contains("conflicted copy") { return .conflictCopy(of: replica) }
        return .unrecognisedLog
    }

    /// Temporary files of file-sync tools and of this program: never read,
    /// and changes to them do not count as changes.
    public static func isTemporary(_ name: String) -> Bool {
        if name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp") { return true }
        if name.hasPrefix("~syncthing~") && name.hasSuffix(".tmp") { return true }
        if LocalPeerFolder.isTemporary(name) { return true }
        return false
    }
}
