import Foundation
import Testing

/// Words and paths as a person types them: a title that starts with `-` needs
/// `--`, empty paths are mistakes, `-` is standard output, and files holding
/// tasks are private.
@Suite struct CLIFileAndPathTests {
    let scratch = Scratch()
    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    @Test func aTitleStartingWithADashIsRefusedNamingDashDash() throws {
        // Read as the flags -d -a -s -h, it used to print help and exit 0.
        let refused = try nextup.run("add", "-dash title")
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("nextup add -- \"-dash title\""))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(try nextup.run("count").out == "0" || nextup.run("count").stderr.contains("no nextup store at"))

        let added = try nextup.run("add", "--", "-dash title")
        #expect(added.status == 0, "\(added)")
        let shown = try nextup.run("show", added.out, "--json")
        let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        #expect(object?["title"] as? String == "-dash title", "\(shown)")
        let noted = try nextup.run("edit", added.out, "--notes=-see above")
        #expect(noted.status == 0, "\(noted)")
    }

    @Test(arguments: [["--store", ""], ["--peer", ""]])
    func anEmptyPathIsAnErrorNotTheCurrentFolder(_ option: [String]) throws {
        let result = try nextup.run(option + ["add", "x"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr == "nextup: \(option[0]) was given an empty path; name a folder (see 'nextup --help')\n")
        // Nothing was added to the default store either.
        #expect(try nextup.run("count").out == "0" || nextup.run("count").stderr.contains("no nextup store at"))
    }

    @Test func exportDashWritesToStandardOutput() throws {
        try nextup.run("add", "to stdout")
        let result = try nextup.run("export", "-")
        #expect(result.status == 0)
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        #expect(objects.map { $0["title"] as? String } == ["to stdout"])
        #expect(!FileManager.default.fileExists(atPath: scratch.path("-").path))
    }

    @Test func anExportFileIsPrivateAndReplacedWhole() throws {
        try nextup.run("add", "private")
        let file = scratch.path("tasks.json")
        try Data("old content".utf8).write(to: file)
        chmod(file.path, 0o644)
        let result = try nextup.run("export", file.path)
        #expect(result.status == 0, "\(result)")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as! Int
        #expect(mode == 0o600)
        let objects = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [[String: Any]]
        #expect(objects.count == 1)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func anExportThatCannotBeWrittenSaysWhyInOneLine() throws {
        try nextup.run("add", "x")
        let missing = try nextup.run("export", scratch.path("no/such/folder/t.json").path)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasSuffix(": No such file or directory\n"), "\(missing)")
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let folder = try nextup.run("export", scratch.url.path)
        #expect(folder.status == 1)
        #expect(folder.stderr.hasSuffix("it is a folder\n"), "\(folder)")
    }
}
