import Foundation
import Testing

/// Issue 9, reproduction 6, as a person meets it: `n` on a ✓ row used to move
/// a done task into Next Up.
@Suite struct TUIDoneTaskTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    @Test func nOnADoneRowSaysSoAndLeavesNextUpAlone() throws {
        let id = try cli.run("add", "Finish me").out
        let tmux = try TUITmux(environment: cli.environment)
        try tmux.run("\"\(NextupProcess.binary.path)\"")
        #expect(try tmux.waitFor("Finish me"))
        try tmux.keys("x")
        #expect(try tmux.waitFor("✓ Finish me"))
        try tmux.keys("n")
        let said = try tmux.waitFor("is done; only open tasks go into Next Up")
        #expect(said, "\((try? tmux.screen()) ?? [])")
        let shown = try JSONSerialization.jsonObject(with: Data(try cli.run("show", id, "--json").stdout.utf8)) as! [String: Any]
        #expect(shown["next_up"] as? Bool == false)
        #expect(shown["done"] as? Bool == true)
        try tmux.keys("q")
    }
}
