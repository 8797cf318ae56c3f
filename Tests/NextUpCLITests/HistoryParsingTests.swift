import Testing
@testable import NextUpCLI

/// The history's commands and options parse as documented (issue 36).
@Suite struct HistoryParsingTests {
    @Test func showTakesHistoryAndJSON() throws {
        let show = try #require(try NextUpCommand.parseAsRoot(["show", "1a2b", "--history", "--json"]) as? ShowCommand)
        #expect(show.history && show.json && show.id == "1a2b")
    }

    @Test func restoreTakesOneEntry() throws {
        let restore = try #require(try NextUpCommand.parseAsRoot(["restore", "1a2b", "--entry", "e414b1e8"]) as? RestoreCommand)
        #expect(restore.entry == "e414b1e8" && restore.ids == ["1a2b"])
        let plain = try #require(try NextUpCommand.parseAsRoot(["restore", "1a2b", "3c4d"]) as? RestoreCommand)
        #expect(plain.entry == nil && plain.ids.count == 2)
        #expect(throws: (any Error).self) { try NextUpCommand.parseAsRoot(["restore", "1a2b", "--entry"]) }
    }

    @Test func changesMachineAndStatusParse() throws {
        let changes = try #require(try NextUpCommand.parseAsRoot(["changes", "--since", "2h", "--json"]) as? ChangesCommand)
        #expect(changes.since == "2h" && changes.json)
        let machine = try #require(try NextUpCommand.parseAsRoot(["machine", "laptop"]) as? MachineCommand)
        #expect(machine.name == "laptop" && !machine.reset)
        #expect(try NextUpCommand.parseAsRoot(["status"]) is StatusCommand)
        #expect(throws: (any Error).self) { try NextUpCommand.parseAsRoot(["status", "extra"]) }
    }

    @Test func sinceReadsDurationsAndDates() throws {
        let now: Int64 = 1_800_000_000_000
        #expect(try ChangesCommand.parseSince("2h", now: now) == now - 7_200_000)
        #expect(try ChangesCommand.parseSince("3d", now: now) == now - 3 * 86_400_000)
        #expect(try ChangesCommand.parseSince("2026-11-20", now: now) < now)
        #expect(throws: (any Error).self) { try ChangesCommand.parseSince("soon", now: now) }
    }
}
