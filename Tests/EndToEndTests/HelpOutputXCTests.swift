import Foundation
import XCTest

/// The built binary's help, compared as a person reads it (an XCTest case, so
/// both of `swift test`'s runners report what they ran).
final class HelpOutputXCTests: XCTestCase {
    func testHelpListsEveryCommandOfTheDesign() throws {
        let scratch = Scratch()
        let result = try NextupProcess(home: scratch.url).run("--help")
        XCTAssertEqual(result.status, 0)
        for command in ["add", "list", "next", "show", "edit", "done", "undone", "delete", "restore",
                        "count", "export", "import", "sync", "doctor"] {
            XCTAssertTrue(result.stdout.contains("\n  \(command) "), "help lists \(command)")
        }
        XCTAssertTrue(result.stdout.contains("--store <dir>"))
        XCTAssertTrue(result.stdout.contains("--peer <dir>"))
    }

    func testASubcommandsHelpShowsItsOptions() throws {
        let scratch = Scratch()
        let result = try NextupProcess(home: scratch.url).run("add", "--help")
        XCTAssertEqual(result.status, 0)
        for option in ["--urgency", "--importance", "--duration", "--category", "--due", "--notes", "--next", "--json"] {
            XCTAssertTrue(result.stdout.contains(option), "add --help shows \(option)")
        }
    }

    func testEditsHelpShowsBeforeAndAfter() throws {
        let scratch = Scratch()
        let result = try NextupProcess(home: scratch.url).run("edit", "--help")
        XCTAssertEqual(result.status, 0)
        for option in ["--before <id>", "--after <id>", "--next/--no-next"] {
            XCTAssertTrue(result.stdout.contains(option), "edit --help shows \(option)")
        }
    }
}
