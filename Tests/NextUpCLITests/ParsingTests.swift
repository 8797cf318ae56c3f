import ArgumentParser
import NextUpCore
import Testing
@testable import NextUpCLI

/// End-to-end parses: argument vectors to commands, without running them.
@Suite struct ParsingTests {
    @Test func addParsesEveryOption() throws {
        let parsed = try NextUpCommand.parseAsRoot(["add", "Write", "it", "--urgency", "urgent", "--importance", "3",
                                                    "--duration", "1h", "--category", "Admin", "--due", "2026-01-02",
                                                    "--notes", "n", "--next", "--json", "--store", "/tmp/x"])
        let add = try #require(parsed as? AddCommand)
        #expect(add.title == ["Write", "it"])
        #expect(add.urgency == "urgent" && add.importance == "3" && add.duration == "1h")
        #expect(add.next && add.json)
        #expect(add.global.store == "/tmp/x")
    }

    @Test func editTurnsNoneIntoAClearingWrite() throws {
        let edit = try #require(try NextUpCommand.parseAsRoot(["edit", "abcd", "--urgency", "none", "--importance", "2",
                                                               "--duration", "NONE", "--notes", "none", "--no-next"]) as? EditCommand)
        let fields = try edit.requestedFields()
        // In field-table order.
        #expect(fields.map(\.0) == [.notes, .urgency, .importance, .duration])
        #expect(fields[0].1 == .string("") && fields[1].1 == .null && fields[2].1 == .int(2) && fields[3].1 == .null)
        #expect(edit.next == false)
    }

    @Test func editValidatesBeforeTouchingTheStore() throws {
        let edit = try #require(try NextUpCommand.parseAsRoot(["edit", "abcd", "--duration", "99999"]) as? EditCommand)
        #expect(throws: TaskInputError.self) { try edit.requestedFields() }
    }

    @Test func listRefusesTwoScopes() {
        #expect(throws: (any Error).self) { try NextUpCommand.parseAsRoot(["list", "--done", "--deleted"]) }
    }

    @Test func recoverTakesAnOptionalExport() throws {
        let bare = try #require(try NextUpCommand.parseAsRoot(["recover"]) as? RecoverCommand)
        #expect(bare.from == nil)
        let from = try #require(try NextUpCommand.parseAsRoot(["recover", "--from", "backup.json"]) as? RecoverCommand)
        #expect(from.from == "backup.json")
        #expect(throws: (any Error).self) { try NextUpCommand.parseAsRoot(["recover", "extra"]) }
    }

    @Test func everyDesignCommandExists() throws {
        for name in ["add", "list", "next", "show", "edit", "done", "undone", "delete", "restore", "count", "export", "import", "doctor"] {
            #expect(NextUpCommand.configuration.subcommands.contains { $0.configuration.commandName == name }, "\(name)")
        }
    }
}

@Suite struct TaskTableTests {
    func task(_ title: String, _ edit: (inout TaskItem) -> Void = { _ in }) -> TaskItem {
        var t = TaskItem(id: TaskID("12345678-0000-4000-8000-000000000001")!)
        t.title = title
        edit(&t)
        return t
    }

    @Test func unsetAttributesShowAsQuestionMarks() {
        let lines = TaskTable.render([task("plain")], width: nil)
        #expect(lines[1] == "  12345678  ?       ?    ?       ?             -           plain")
    }

    @Test func setAttributesShowTheirValues() throws {
        let t = task("full") {
            $0.urgency = .urgent; $0.importance = .high; $0.duration = try? TaskDuration(minutes: 90)
            $0.category = "Deep Work"; $0.due = try? DueDate.parse("2026-12-24"); $0.nextUpPosition = "V"
        }
        #expect(TaskTable.render([t], width: nil)[1] == "▸ 12345678  yes     3    1h30m   Deep Work     2026-12-24  full")
    }

    @Test func titlesAreCutToTheWidthByDisplayCells() {
        let lines = TaskTable.render([task(String(repeating: "日本", count: 40))], width: 80)
        for line in lines { #expect(TerminalWidth.width(of: line) <= 80) }
        #expect(lines[1].hasSuffix("…"))
    }
}
