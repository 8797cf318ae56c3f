import Foundation
import Testing

/// The config file's `[taskwarrior]` table: the mapping's choices once, for
/// every `import --from taskwarrior`; options on the command line win.
@Suite struct TaskwarriorConfigTests {
    let scratch = Scratch()

    func cli(config: String) throws -> NextupProcess {
        let file = scratch.path("config.toml")
        try Data(config.utf8).write(to: file)
        return NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path, "NEXTUP_CONFIG": file.path])
    }

    static let export = """
        [{"uuid":"0f4c6a51-7d1e-4c55-9b51-2d3e8a1c0b01","description":"Prune the roses","status":"pending",
          "entry":"20261101T080000Z","modified":"20261101T080000Z","project":"Home.Garden","tags":["hot"],"estimate":"PT1H30M"}]
        """

    func imported(_ cli: NextupProcess, _ extra: [String] = []) throws -> [String: Any] {
        let file = scratch.path("tw.json")
        try Data(Self.export.utf8).write(to: file)
        let r = try cli.run(["import", "--from", "taskwarrior", file.path] + extra)
        #expect(r.status == 0, "\(r)")
        let shown = try cli.run("show", "0f4c6a51", "--json")
        return try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as! [String: Any]
    }

    @Test func theTableSetsTheMappingAndOptionsWin() throws {
        let cli = try cli(config: """
            [taskwarrior]
            category = "top-project"
            urgency_from = "hot"
            duration_from = "estimate"
            """)
        let task = try imported(cli)
        #expect(task["category"] as? String == "Home")
        #expect(task["urgency"] as? String == "urgent")
        #expect(task["duration"] as? Int == 90)
        // The command line wins over the file.
        let again = try imported(cli, ["--category-from-project", "--overwrite"])
        #expect(again["category"] as? String == "Home.Garden")
    }

    @Test func aBadChoiceIsOneLineAndWritesNothing() throws {
        let cli = try cli(config: "[taskwarrior]\ncategory = \"first\"\n")
        let file = scratch.path("tw.json")
        try Data(Self.export.utf8).write(to: file)
        let r = try cli.run("import", "--from", "taskwarrior", file.path)
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("'taskwarrior.category' must be \"project\" or \"top-project\", not \"first\"\n"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("store").appendingPathComponent("nextup.sqlite").path))
    }
}
