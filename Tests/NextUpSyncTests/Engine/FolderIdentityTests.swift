import Foundation
import NextUpCore
import Testing
@testable import NextUpSync

/// The peer folder's identity rules (DESIGN.md §5), as a table.
@Suite struct FolderIdentityTests {
    let known = PeerFolderMarker(id: "known", created: 1)
    let other = PeerFolderMarker(id: "other", created: 1)

    func verdict(_ marker: FolderIdentity.Marker, remembered: String?, ownLog: Bool = false, mergedLog: Bool = false,
                 wroteBefore: Bool = false, mergedBefore: Bool = false, others: Bool = false, adopt: Bool = false) -> FolderIdentity.Verdict {
        FolderIdentity(marker: marker, remembered: remembered, ownLogPresent: ownLog, mergedLogPresent: mergedLog,
                       wroteHereBefore: wroteBefore, mergedBefore: mergedBefore, otherLogsPresent: others, adopt: adopt).verdict(now: 7)
    }

    func refused(_ v: FolderIdentity.Verdict) -> Bool { if case .refuse = v { return true } else { return false } }
    func written(_ v: FolderIdentity.Verdict) -> PeerFolderMarker? { if case .accept(let write, _) = v { return write } else { return nil } }
    func remembered(_ v: FolderIdentity.Verdict) -> String? { if case .accept(_, let id) = v { return id } else { return nil } }

    @Test func theRememberedFolderIsUsedAndAnotherIsRefused() {
        #expect(verdict(.intact(known), remembered: "known", ownLog: true, wroteBefore: true) == .same)
        // Another folder mounted there: none of the logs this store knows.
        #expect(refused(verdict(.intact(other), remembered: "known", wroteBefore: true, mergedBefore: true, others: true)))
        #expect(refused(verdict(.intact(other), remembered: "known", mergedBefore: true)))
        #expect(remembered(verdict(.intact(other), remembered: "known", adopt: true)) == "other")
    }

    @Test func aMarkerReplacedByAFileSyncToolIsFollowedWhenTheFolderHoldsALogThisStoreKnows() {
        // Two first syncs on two copies of the folder: the tool kept the other machine's marker.
        #expect(verdict(.intact(other), remembered: "known", ownLog: true, wroteBefore: true, others: true)
                == .accept(write: nil, remember: "other"))
        #expect(verdict(.intact(other), remembered: "known", mergedLog: true, wroteBefore: true, mergedBefore: true, others: true)
                == .accept(write: nil, remember: "other"))
        // A store that never wrote to nor merged from a folder has nothing tied to the old one.
        #expect(verdict(.intact(other), remembered: "known", others: true) == .accept(write: nil, remember: "other"))
        // A lost marker under a log this store merged: written again, same id.
        #expect(written(verdict(.missing, remembered: "known", mergedLog: true, wroteBefore: true, mergedBefore: true))?.id == "known")
    }

    @Test func aFolderThatLostItsMarkerIsRefusedUnlessThisReplicasLogProvesItIsTheSame() {
        // An unmounted share: an empty mount point.
        #expect(refused(verdict(.missing, remembered: "known", wroteBefore: true)))
        #expect(refused(verdict(.damaged, remembered: "known", wroteBefore: true, others: true)))
        // The marker alone was deleted: written again with the same id.
        #expect(written(verdict(.missing, remembered: "known", ownLog: true, wroteBefore: true))?.id == "known")
        // On purpose: a new marker.
        let adopted = verdict(.missing, remembered: "known", adopt: true)
        #expect(written(adopted) != nil && remembered(adopted) == written(adopted)?.id)
    }

    @Test func aNewFolderAndAJoiningMachineAreFine() {
        // A brand-new empty folder on first use: a marker is written and remembered.
        let fresh = verdict(.missing, remembered: nil)
        #expect(written(fresh) != nil && remembered(fresh) == written(fresh)?.id)
        // A second machine joining: it takes the folder's marker.
        #expect(verdict(.intact(known), remembered: nil, others: true) == .accept(write: nil, remember: "known"))
        // Joining a folder whose marker has not arrived yet: sync, but write no second marker.
        #expect(verdict(.missing, remembered: nil, others: true) == .accept(write: nil, remember: nil))
        // A store from before markers, in its folder: the marker is written now.
        #expect(written(verdict(.missing, remembered: nil, ownLog: true, wroteBefore: true, others: true)) != nil)
        // …but an empty folder where it wrote before looks unmounted.
        #expect(refused(verdict(.missing, remembered: nil, wroteBefore: true)))
    }
}
