import Foundation

/// One private Taskwarrior (Debian's `task` 2.6) and one private nextup store
/// side by side in a scratch folder, and the trips between them: each side's
/// export imported by the other, as a person living with both would.
struct TaskwarriorSide {
    let scratch: Scratch
    /// Options both directions take (`--urgency-from`, `--duration-from`, …).
    var mapping: [String] = []
    /// The time zone both sides run in.
    var timeZone = "UTC"

    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path, "TZ": timeZone]) }

    /// Runs `task` with its own taskrc and data folder; a failure is thrown.
    @discardableResult
    func task(_ args: String...) throws -> NextupProcess.Result { try task(args) }

    @discardableResult
    func task(_ args: [String], stdin: String? = nil) throws -> NextupProcess.Result {
        let rc = scratch.path("taskrc")
        if !FileManager.default.fileExists(atPath: rc.path) {
            try Data("""
                confirmation=off
                verbose=nothing
                recurrence.confirmation=no
                uda.estimate.type=duration
                uda.estimate.label=Estimate
                uda.energy.type=string
                uda.energy.label=Energy
                uda.touched.type=string
                uda.touched.label=Touched

                """.utf8).write(to: rc)
        }
        var env = ProcessInfo.processInfo.environment
        env["TASKRC"] = rc.path
        env["TASKDATA"] = scratch.path("taskdata").path
        env["TZ"] = timeZone
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/task")
        p.arguments = ["rc.data.location=" + scratch.path("taskdata").path] + args
        p.environment = env
        let result = try NextupProcess.capture(p, stdin: stdin)
        guard result.status == 0 else { throw Failure("task \(args.joined(separator: " ")): \(result)") }
        return result
    }

    /// `task export` as objects by uuid, without the computed `id` and `urgency`.
    func taskwarriorTasks() throws -> [String: [String: Any]] {
        let list = try JSONSerialization.jsonObject(with: Data(try task("export").stdout.utf8)) as? [[String: Any]] ?? []
        var out: [String: [String: Any]] = [:]
        for var o in list {
            o["id"] = nil
            o["urgency"] = nil
            out[o["uuid"] as! String] = o
        }
        return out
    }

    /// Taskwarrior → nextup: `task export`, `nextup import --from taskwarrior`.
    @discardableResult
    func toNextup(_ extra: [String] = []) throws -> NextupProcess.Result {
        let file = scratch.path("from-task.json")
        try Data(try task("export").stdout.utf8).write(to: file)
        let r = try nextup.run(["import", "--from", "taskwarrior", file.path] + mapping + extra)
        guard r.status == 0 else { throw Failure("nextup import: \(r)") }
        return r
    }

    /// nextup → Taskwarrior: `nextup export --to taskwarrior`, `task import`.
    func toTaskwarrior() throws {
        let file = scratch.path("from-nextup.json")
        let r = try nextup.run(["export", "--to", "taskwarrior", file.path] + mapping)
        guard r.status == 0 else { throw Failure("nextup export: \(r)") }
        try task("import", file.path)
    }

    /// `nextup show ID --json`.
    func nextupTask(_ id: String) throws -> [String: Any] {
        let shown = try nextup.run("show", id, "--json")
        guard let o = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any] else { throw Failure("\(shown)") }
        return o
    }

    /// `nextup export`, every task by id.
    func nextupTasks() throws -> [String: [String: Any]] {
        let list = try JSONSerialization.jsonObject(with: Data(try nextup.run("export").stdout.utf8)) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as! String, $0) })
    }

    /// The uuid of the Taskwarrior task described `description`.
    func uuid(_ description: String) throws -> String {
        guard let id = try taskwarriorTasks().values.first(where: { $0["description"] as? String == description && $0["status"] as? String != "recurring" })?["uuid"] as? String
        else { throw Failure("no task '\(description)'") }
        return id
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
