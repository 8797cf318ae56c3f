import NextUpCore

/// What one sync cycle did, for the `sync` command's output and the status bar.
public struct SyncReport: Sendable, Equatable {
    /// Why this replica rewrote its whole log.
    public enum RewriteReason: String, Sendable, Equatable {
        case firstSync = "first sync"
        case missing = "it was missing"
        case retired = "another replica had retired it after a long silence"
        case replaced = "it was replaced or damaged"
        case damaged = "a line in it was damaged"
        case compaction = "compaction"
        case copiedStore = "the store was copied; new replica id"
    }

    /// Local field changes appended to this replica's log.
    public var uploaded = 0
    /// Remote field changes that won and were merged into the store.
    public var merged = 0
    /// The tasks those changes touched.
    public var changedTasks: Set<TaskID> = []
    /// Replicas whose logs were found readable.
    public var peers: Set<ReplicaID> = []
    /// Peer files read from their start, with why.
    public var fullReads: [String: String] = [:]
    /// Everything skipped, damaged or odd, in plain words.
    public var issues: [LogIssue] = []
    /// Conflict copies merged and renamed aside.
    public var conflictCopiesMerged: [String] = []
    /// Logs of replicas silent past ``SyncOptions/retireLogsAfterMillis``,
    /// set aside after their changes still held here were re-published.
    public var retiredLogs: [String: Retirement] = [:]

    /// One retired log: how long it had been silent (ms: unchanged as this
    /// machine saw it, and its writer's newest change that old) and how many
    /// of its changes this store re-published.
    public struct Retirement: Sendable, Equatable {
        public var silent: Int64
        public var republished: Int
    }
    /// Set when this replica's whole log was rewritten.
    public var ownLogRewritten: RewriteReason?
    /// Set when the store turned out to be a copy and took a new replica id.
    public var newReplicaID: ReplicaID?
    /// Peer files holding timestamps far ahead of this machine's clock
    /// (accepted and merged anyway), with how far ahead in milliseconds.
    public var clockSkew: [String: Int64] = [:]
    /// Remote changes under this replica's own id that this store never made.
    public var foreignChangesUnderOwnID = 0
    /// Changes re-published because a peer's log no longer holds them (its
    /// writer was restored from a backup), by that log's name.
    public var republished: [String: Int] = [:]
    /// Bytes this cycle wrote to the peer folder.
    public var bytesWritten: Int64 = 0

    /// What the ``SyncCompanion`` (the phone bridge) did after the cycle, if any.
    public var companion: SyncCompanionResult?
    /// Why the companion could not run, if it failed.
    public var companionError: String?

    public init() {}

    /// Whether the store's tasks or identity changed.
    public var changedStore: Bool { merged > 0 || newReplicaID != nil || companion?.changedStore == true }

    /// A human summary, one line each, for `nextup sync`.
    public var lines: [String] {
        let peerWord = peers.count == 1 ? "peer" : "peers"
        var out = ["uploaded \(uploaded) change\(uploaded == 1 ? "" : "s"); merged \(merged) change\(merged == 1 ? "" : "s") into \(changedTasks.count) task\(changedTasks.count == 1 ? "" : "s") from \(peers.count) \(peerWord)"]
        out += repairLines
        for (file, reason) in fullReads.sorted(by: { $0.key < $1.key }) { out.append("read \(file) from the start (\(reason))") }
        out += mergeLines
        for (file, ahead) in clockSkew.sorted(by: { $0.key < $1.key }) {
            out.append("warning: \(file) holds changes \(Self.duration(ahead)) ahead of this machine's clock (merged anyway); check the clocks")
        }
        out += skippedLines
        out += companion?.lines ?? []
        if let companionError { out.append("warning: \(companionError)") }
        return out
    }

    /// The lines worth a word even in the background (`sync --watch`): what
    /// was repaired, re-published or renamed aside, and what was skipped.
    public var notices: [String] {
        repairLines + mergeLines + skippedLines + (companion?.notices ?? []) + (companionError.map { [$0] } ?? [])
    }

    private var repairLines: [String] {
        var out: [String] = []
        if let reason = ownLogRewritten { out.append("rewrote this replica's log (\(reason.rawValue))") }
        if let id = newReplicaID { out.append("this store is a copy of another one: it now uses replica id \(id) (nothing was lost)") }
        return out
    }

    private var mergeLines: [String] {
        var out = conflictCopiesMerged.map { "merged conflict copy \($0) and renamed it aside" }
        out += retiredLogs.sorted { $0.key < $1.key }.map {
            let n = $0.value.republished
            return "retired \($0.key): its machine has made no change for \(SyncReport.duration($0.value.silent)); "
                + "re-published the \(n) change\(n == 1 ? "" : "s") of it this store holds in this replica's log, so machines that never read it get them"
        }
        for (file, count) in republished.sorted(by: { $0.key < $1.key }) {
            out.append("re-published \(count) change\(count == 1 ? "" : "s") that \(file) no longer holds (its machine lost them, e.g. restored from a backup)")
        }
        return out
    }

    /// A torn last line is not skipped but waited for (its writer may be
    /// writing it): said as such, and not as damage (the TUI's status bar
    /// leads with what was skipped).
    private var skippedLines: [String] {
        issues.map {
            if case .incompleteLastLine = $0.kind { return "waiting: \($0.description)" }
            return "skipped: \($0.description)"
        }
    }

    public static func duration(_ millis: Int64) -> String {
        let seconds = millis / 1000
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7_200 { return "\(seconds / 60) min" }
        if seconds < 172_800 { return "\(seconds / 3_600) h" }
        return "\(seconds / 86_400) days"
    }
}
