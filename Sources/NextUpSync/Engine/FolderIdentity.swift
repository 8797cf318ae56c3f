import NextUpCore

/// Whether the peer folder is the one this store synced with (DESIGN.md §5:
/// an unmounted share must not silently become a local folder). A pure
/// decision over what the folder and the store hold; ``SyncCycle`` applies it
/// before it reads or writes anything else, and `doctor` reports it.
///
/// What proves a folder is the one this store synced with is what it holds,
/// not only its marker: this replica's own log, or a log this store already
/// merged from (``knownLogPresent``). File-sync tools that copy both ways
/// replace a marker with another machine's (two first syncs on two copies of
/// one folder), so a marker that changed under logs this store knows is
/// followed, and every machine converges on the one the tool kept.
///
/// Rules, in order:
/// - `--adopt-folder` (``adopt``): the folder is taken as it is — its marker,
///   or a new one — and remembered.
/// - An intact marker naming the remembered id: the same folder.
/// - An intact marker naming another id (or nothing remembered): the store
///   takes it and remembers it when nothing is remembered, when the folder
///   holds a log this store knows, or when this store never wrote to nor
///   merged from a peer folder (it has nothing tied to the old one); else
///   refused (another folder is mounted there).
/// - No marker (or a damaged one) while one is remembered: refused — unless
///   the folder holds a log this store knows, which proves it is the same
///   folder whose marker was deleted; then the marker is written again,
///   same id.
/// - No marker, nothing remembered: a store that wrote a log here before and
///   now finds the folder without any log is refused (an unmounted share);
///   a store that never synced, finding other replicas' logs, syncs without
///   writing a marker yet (the folder's marker may still be on its way from
///   another machine); otherwise — a brand-new folder on first use, or a
///   folder of stores from before markers — a new marker is written and
///   remembered.
///
/// An empty folder never holds a known log, so an empty mount point where
/// this store synced before is always refused.
struct FolderIdentity {
    enum Marker: Equatable {
        case missing
        case damaged
        case intact(PeerFolderMarker)
    }

    enum Verdict: Equatable {
        /// The folder is the remembered one; nothing to write.
        case same
        /// Use the folder: write `write` as its marker (when set), then remember its id.
        case accept(write: PeerFolderMarker?, remember: String?)
        /// The folder looks unmounted or replaced, with why.
        case refuse(String)
    }

    var marker: Marker
    var remembered: String?
    /// This replica's own log is in the folder.
    var ownLogPresent: Bool
    /// A log this store has already merged from (it holds a cursor for it) is in the folder.
    var mergedLogPresent: Bool = false
    /// This store wrote a log to a peer folder before.
    var wroteHereBefore: Bool
    /// This store merged from a peer folder before (it holds any cursor).
    var mergedBefore: Bool = false
    var otherLogsPresent: Bool
    var adopt: Bool

    /// The folder holds a log this store wrote or merged.
    var knownLogPresent: Bool { ownLogPresent || mergedLogPresent }

    /// The decision, with a fresh marker made at time `now` when one is needed.
    func verdict(now: Int64) -> Verdict {
        let fresh = PeerFolderMarker(created: now)
        switch marker {
        case .intact(let found):
            if found.id == remembered { return .same }
            if remembered == nil || adopt || knownLogPresent || (!wroteHereBefore && !mergedBefore) {
                return .accept(write: nil, remember: found.id)
            }
            return .refuse("its marker \(PeerFolderMarker.fileName) names folder \(found.id.prefix(8)), not \(remembered!.prefix(8)) that this store synced with, and none of the logs this store wrote or read is in it")
        case .missing, .damaged:
            if adopt { return .accept(write: fresh, remember: fresh.id) }
            let what = marker == .damaged ? "its marker \(PeerFolderMarker.fileName) is damaged" : "it has no \(PeerFolderMarker.fileName) marker"
            if let remembered {
                if knownLogPresent { return .accept(write: PeerFolderMarker(id: remembered, created: now), remember: remembered) }
                return .refuse("\(what), and this replica's log is not in it")
            }
            if wroteHereBefore && !ownLogPresent && !otherLogsPresent {
                return .refuse("\(what) and no log, but this store synced through it before")
            }
            if !wroteHereBefore && otherLogsPresent && marker == .missing { return .accept(write: nil, remember: nil) }
            return .accept(write: fresh, remember: fresh.id)
        }
    }
}

extension SyncCycle {
    /// What the folder and the store say about the folder's identity.
    func folderIdentity(_ me: ReplicaID, _ listing: [PeerFileInfo], adopt: Bool) throws -> FolderIdentity {
        var ownLog = false, others = false, marker = false
        var logs: [String] = []
        for info in listing {
            if info.name == PeerFolderMarker.fileName { marker = true }
            if case .log(let replica) = PeerFileName.classify(info.name) {
                if replica == me { ownLog = true } else { others = true; logs.append(info.name) }
            }
        }
        var identity = FolderIdentity(marker: try readMarker(present: marker), remembered: try storage.peerFolderID(),
                                      ownLogPresent: ownLog, wroteHereBefore: try storage.ownLogState() != nil,
                                      otherLogsPresent: others, adopt: adopt)
        if case .intact(let found) = identity.marker, found.id == identity.remembered { return identity }
        // Only when the marker is not the remembered one: what this store merged.
        let cursors = try storage.cursors()
        identity.mergedBefore = !cursors.isEmpty
        identity.mergedLogPresent = logs.contains { cursors[$0] != nil }
        return identity
    }

    /// Reads the folder's marker file (`present`: whether the listing has it).
    func readMarker(present: Bool) throws -> FolderIdentity.Marker {
        guard present, let info = try folder.info(PeerFolderMarker.fileName) else { return .missing }
        if let seen = markerSeen.withLock({ $0 }), seen.info == info { return seen.marker }
        let bytes = try folder.read(PeerFolderMarker.fileName, at: 0, count: Int(min(info.size, 4_096)))
        let marker = PeerFolderMarker.decode(bytes).map(FolderIdentity.Marker.intact) ?? .damaged
        markerSeen.withLock { $0 = (info, marker) }
        return marker
    }

    /// Why the peer folder would be refused, in plain words; nil when a sync
    /// would use it. Writes nothing (for `doctor`).
    public func folderProblem() throws -> String? {
        try folder.checkAvailable()
        let identity = try folderIdentity(try storage.replicaID(), try folder.list(), adopt: false)
        if case .refuse(let why) = identity.verdict(now: clock.nowMillis()) {
            return PeerFolderError.unmountedOrReplaced(path: folder.location, why: why).description
        }
        return nil
    }
}
