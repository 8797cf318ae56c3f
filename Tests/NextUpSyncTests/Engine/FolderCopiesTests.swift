import Foundation
import NextUpCore
import Testing
@testable import NextUpSync

/// Two copies of one peer folder kept in step by a file-sync tool that copies
/// both ways (Syncthing, Dropbox, Unison): each machine's first sync on its
/// own copy writes a marker, the tool keeps one and makes a conflict copy of
/// the other. Both machines must keep syncing with no manual step.
@Suite struct FolderCopiesTests {
    /// What the tool does: every file of `from` that `to` lacks is copied
    /// over, and a log `from` holds more of (logs only grow); a marker that
    /// differs is replaced by `from`'s, the replaced one kept as a conflict copy.
    func copy(_ from: InMemoryPeerFolder, to: InMemoryPeerFolder) throws {
        for info in try from.list() {
            let bytes = try #require(from.contents(of: info.name))
            guard let theirs = to.contents(of: info.name) else { to.put(info.name, bytes); continue }
            if theirs == bytes { continue }
            if info.name == PeerFolderMarker.fileName {
                to.put("nextup-folder.sync-conflict-20261126-170000-ABCDEFG.id", theirs)
                to.put(info.name, bytes)
            } else if bytes.count > theirs.count {
                to.put(info.name, bytes)
            }
        }
    }

    @Test(arguments: [false, true])
    func twoFirstSyncsOnTwoCopiesConvergeOnOneMarker(keptFromA: Bool) throws {
        let onA = InMemoryPeerFolder(location: "memory:a"), onB = InMemoryPeerFolder(location: "memory:b")
        let a = FakeReplica(folder: onA), b = FakeReplica(folder: onB)
        let fromA = a.add("made on A")
        try a.sync()
        // B starts on its still empty copy before the tool brought A's files.
        let fromB = b.add("made on B")
        try b.sync()
        #expect(onB.contents(of: PeerFolderMarker.fileName) != onA.contents(of: PeerFolderMarker.fileName))
        // The tool meets two markers: it keeps one on both sides.
        if keptFromA { try copy(onA, to: onB); try copy(onB, to: onA) } else { try copy(onB, to: onA); try copy(onA, to: onB) }
        #expect(onA.contents(of: PeerFolderMarker.fileName) == onB.contents(of: PeerFolderMarker.fileName))
        try a.sync(); try b.sync()
        #expect(a.storage.task(fromB)?.title == "made on B" && b.storage.task(fromA)?.title == "made on A")
        // And they keep converging, the conflict copy of the marker still there.
        a.set(fromB, [(.notes, .string("edited on A"))])
        b.set(fromA, [(.notes, .string("edited on B"))])
        try a.sync(); try b.sync()
        try copy(onA, to: onB); try copy(onB, to: onA)
        try a.sync(); try b.sync()
        #expect(a.storage.tasks == b.storage.tasks)
        #expect(b.storage.task(fromB)?.notes == "edited on A" && a.storage.task(fromA)?.notes == "edited on B")
        #expect(try a.storage.peerFolderID() == b.storage.peerFolderID())
        #expect(try a.cycle.folderProblem() == nil && b.cycle.folderProblem() == nil)
    }

    @Test func aMarkerReplacedUnderLogsThisStoreOnlyReadIsFollowed() throws {
        // B has merged A's log but never wrote its own here (a read-only peer
        // would not; a kill between the marker and the log can leave it so).
        let folder = InMemoryPeerFolder()
        let a = FakeReplica(folder: folder), b = FakeReplica(folder: folder)
        _ = a.add("one")
        try a.sync(); try b.sync()
        folder.remove(LogFormat.fileName(for: try b.storage.replicaID()))
        folder.put(PeerFolderMarker.fileName, PeerFolderMarker(created: 5).encodedLine())
        #expect(try b.cycle.folderProblem() == nil)
        try b.sync()
    }
}
