import Foundation
import Testing

/// Taskwarrior users type Taskwarrior: each habit nextup spells differently
/// gets one line naming nextup's spelling, a usage exit, and no change.
@Suite struct TaskwarriorHabitTests {
    let scratch = Scratch()
    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    @Test(arguments: [
        (["3", "done"], "nextup: nextup puts the command first: nextup done ID (ID is the first 4+ characters of the id 'nextup list' shows, not a number)\n"),
        (["modify", "3", "pri:H"], "nextup: 'modify' is Taskwarrior's word; in nextup: nextup edit ID --title … --urgency … --importance … --due …\n"),
        (["--store", "elsewhere", "annotate", "3", "note"], "nextup: 'annotate' is Taskwarrior's word; in nextup: nextup edit ID --notes TEXT\n"),
        (["1daad62b", "start"], "nextup: nextup puts the command first: nextup edit 1daad62b --next (Next Up is what you are working on)\n"),
        (["info", "3"], "nextup: 'info' is Taskwarrior's word; in nextup: nextup show ID\n"),
    ])
    func aTaskwarriorSpellingNamesNextupsSpelling(arguments: [String], message: String) throws {
        let result = try nextup.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr == message)
        #expect(result.stdout.isEmpty)
    }

    @Test func anUnknownWordStillGetsTheParsersMessage() throws {
        let result = try nextup.run("blah")
        #expect(result.status == 64)
        #expect(result.stderr == "nextup: Unexpected argument 'blah' (see 'nextup --help')\n")
    }
}
