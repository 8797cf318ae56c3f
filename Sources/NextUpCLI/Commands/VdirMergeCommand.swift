import ArgumentParser
import Foundation
import NextUpBridge

/// `nextup vdir-merge A B`: vdirsyncer's conflict command
/// (`conflict_resolution = ["command", "nextup", "vdir-merge"]`). vdirsyncer
/// found one item changed both in the vdir and on the server and passes the
/// two versions as files; both are replaced by their three-way merge, each
/// property decided on its own with the bridge's memory of the item as the
/// base (``VdirMerge``). The store and the vdir are found as every command
/// finds them.
struct VdirMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vdir-merge",
        abstract: "Merge two versions of a vdir item, property by property (vdirsyncer's conflict command)."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The item as the vdir holds it (vdirsyncer's side a).", valueName: "a"))
    var a: String

    @Argument(help: ArgumentHelp("The item as the server holds it (vdirsyncer's side b).", valueName: "b"))
    var b: String

    func run() throws {
        let context = try CommandContext.open(global, creating: true)
        guard let bridge = try context.bridge() else {
            throw CLIError("no vdir is configured: pass --vdir DIR, set NEXTUP_VDIR, or set `vdir` in the config file")
        }
        func read(_ path: String) throws -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
            return [UInt8](data)
        }
        let left = try read(a), right = try read(b)
        let merged: String
        do { merged = try bridge.merge(left, right) } catch { throw CLIError("cannot merge \(a) and \(b): \(error)") }
        for path in [a, b] {
            do { try Data(merged.utf8).write(to: URL(fileURLWithPath: path)) } catch { throw CLIError("cannot write \(path)") }
        }
    }
}
