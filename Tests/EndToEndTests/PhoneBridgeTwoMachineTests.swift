import Foundation
import NextUpTestSupport
import Testing

/// Issue 32 (4), two machines on one calendar: machines A and B, each with
/// its own store, vdir and vdirsyncer (the README's config, with `nextup
/// vdir-merge` as the conflict command) to one Radicale calendar, and one
/// peer folder between them. Whichever machine's vdirsyncer sees a phone
/// change first, the phone's newest edit holds on both machines and on the
/// server.
@Suite(.serialized) struct PhoneBridgeTwoMachineTests {
    typealias E2E = PhoneBridgeEndToEndTests
    let scratch = Scratch()

    /// A, B and the calendar holding two tasks made on A; the first is `id`.
    func setUp() throws -> (E2E.Radicale, E2E.Machine, E2E.Machine, String) {
        let radicale = try E2E.Radicale(storage: scratch.path("radicale"))
        try E2E.makeCalendar(radicale)
        let peer = scratch.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let a = try E2E.Machine("a", scratch: scratch, calendarURL: radicale.calendarURL, peer: peer)
        let b = try E2E.Machine("b", scratch: scratch, calendarURL: radicale.calendarURL, peer: peer)
        let id = try a.nextup.run("add", "Water the plants", "--urgency", "urgent").out
        // A second task: vdirsyncer refuses to sync a calendar that was emptied.
        _ = try a.nextup.run("add", "Pay rent").out
        try a.sync()
        try a.vdirsyncer()
        try b.vdirsyncer()
        try b.sync()
        #expect(FileManager.default.fileExists(atPath: b.vdir.appendingPathComponent("\(id).ics").path))
        return (radicale, a, b, id)
    }

    /// Waits for the wall clock's next second: a phone stamps its edits in
    /// whole seconds, and its second edit must be stamped after its first.
    func nextSecond() {
        let start = Int(Date().timeIntervalSince1970)
        _ = eventually(within: 3) { Int(Date().timeIntervalSince1970) > start }
    }

    /// The phone completes a task and machine B takes the completion; the
    /// phone reopens it and machine A's vdirsyncer sees the reopen first,
    /// while A's file already says what B took: the reopen holds everywhere.
    @Test func aPhoneReopenAfterTheOtherMachineTookTheCompletionHolds() throws {
        let (radicale, a, b, id) = try setUp()
        let url = radicale.calendarURL

        nextSecond()
        _ = try E2E.phone(url, "complete", id)
        try b.vdirsyncer()
        try b.sync()
        #expect(try b.task(id)["done"] as? Bool == true)
        // A learns the completion through the peer folder and writes it into its file.
        try a.sync()
        #expect(try a.task(id)["done"] as? Bool == true)

        nextSecond()
        _ = try E2E.phone(url, "reopen", id)
        for machine in [a, b, a, b] {
            try machine.vdirsyncer()
            try machine.sync()
            try machine.vdirsyncer()
        }
        #expect(try E2E.phoneTasks(url)[id]?["status"] as? String == "NEEDS-ACTION")
        #expect(try a.task(id)["done"] as? Bool == false)
        #expect(try b.task(id)["done"] as? Bool == false)
        #expect(try a.task(id)["urgency"] as? String == "urgent")
    }

    /// The phone removes a task; machine A's vdirsyncer and sync see it
    /// first and delete the task; B's sync merges the deletion before B's
    /// vdirsyncer runs: B removes its file too, and the task does not come
    /// back to the phone as CANCELLED.
    @Test func aTaskRemovedOnThePhoneStaysRemovedWhenTheOtherMachineMergesItFirst() throws {
        let (radicale, a, b, id) = try setUp()
        let url = radicale.calendarURL

        _ = try E2E.phone(url, "delete", id)
        try a.vdirsyncer()
        #expect(try a.sync().contains("1 deleted"))
        #expect(try a.task(id)["deleted"] as? Bool == true)
        // B: the peer folder first (its file still there), then its vdirsyncer.
        try b.sync()
        #expect(try b.task(id)["deleted"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: b.vdir.appendingPathComponent("\(id).ics").path))
        for machine in [b, a, b] {
            try machine.vdirsyncer()
            try machine.sync()
            try machine.vdirsyncer()
        }
        #expect(try E2E.phoneTasks(url)[id] == nil)
        #expect(try a.task(id)["deleted"] as? Bool == true && b.task(id)["deleted"] as? Bool == true)

        // Restored in nextup: back on the phone, as a restore always was.
        #expect(try b.nextup.run("restore", id).status == 0)
        try b.sync()
        try b.vdirsyncer()
        #expect(try E2E.phoneTasks(url)[id]?["summary"] as? String == "Water the plants")
        try a.sync()
        #expect(try a.task(id)["deleted"] as? Bool == false)
    }
}
