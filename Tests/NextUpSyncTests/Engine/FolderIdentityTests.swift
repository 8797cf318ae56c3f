import Foundation
import NextUpCore
import Testing
@testable import NextUpSync

/// The peer folder's identity rules (DESIGN.md §5), as a table.
@Suite struct FolderIdentityTests {
    let known = PeerFolderMarker(id: "known", created: 1)
    let other = PeerFolderMarker(id: "other", created: 1)

    func verdict(_ marker: FolderIdentity.Marker, remembered: String?, ownLog: Bool = false, wroteBefore: Bool = false,
                 others: Bool = false, adopt: Bool = false) -> FolderIdentity.Verdict {
        FolderIdentity(marker: marker, remembered: remembered, ownLogPresent: ownLog, wroteHereBefore: wroteBefore,
                       otherLogsPresent: others, adopt: adopt).verdict(now: 7)
    }

    func refused(_ v: FolderIdentity.Verdict) -> Bool { if case .refuse = v { return true } else { return false } }
    func written(_ v: FolderIdentity.Verdict) -> PeerFolderMarker? { if case .accept(let write, _) = v { return write } else { return nil } }
    func remembered(_ v: FolderIdentity.Verdict) -> String? { if case .accept(_, let id) = v { return id } else { return nil } }

    @Test func theRememberedFolderIsUsedAndAnotherIsRefused() {
        #expect(verdict(.intact(known), remembered: "known", ownLog: true, wroteBefore: true) == .same)
        #expect(refused(verdict(.intact(other), remembered: "known", ownLog: true, wroteBefore: true)))
        #expect(remembered(verdict(.intact(other), remembered: "known", adopt: true)) == "other")
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
