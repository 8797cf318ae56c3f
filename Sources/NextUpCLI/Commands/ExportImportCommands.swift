import ArgumentParser
import Foundation
import NextUpCore
import NextUpStore

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write every task (done and deleted too) as a JSON array.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file to write, or - for standard output (the default).") var file: String?

    func run() throws {
        let context = try CommandContext.open(global)
        let all = try context.store.allTasks()
        // Next Up first, in its order, so an import rebuilds that order.
        let next = TaskOrdering.nextUp(all)
        let nextIDs = Set(next.map(\.id))
        let rest = all.filter { !nextIDs.contains($0.id) }.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
        let json = try JSONOutput.string(next + rest, versions: true) + "\n"
        guard let file, file != "-" else { print(json, terminator: ""); return }
        try PrivateFile.write(Data(json.utf8), to: file, command: "export")
        Terminal.printError("exported \(all.count) tasks to \(file)")
    }
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a JSON array of tasks (as `export` writes); idempotent.",
        discussion: """
            Tasks are matched by id and merged like a sync: a field takes the file's value only when the file's \
            is newer than the store's (the per-field versions `export` writes, else the record's `modified`), \
            so importing an older backup never reverts newer edits. --overwrite rolls the store back to the \
            file and lists every newer value it replaced. One bad item rejects the whole file.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file to read, or - for standard input.") var file: String
    @Flag(help: "Take the file's values even where the store's are newer (listing each one replaced).") var overwrite = false

    func run() throws {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDir), !isDir.boolValue,
                  let d = FileManager.default.contents(atPath: file) else {
                throw CLIError("import: cannot read \(file)")
            }
            data = d
        }
        let records = try JSONOutput.decodeTasks(data)
        let context = try CommandContext.open(global)
        let summary = try context.store.importTasks(records, overwrite: overwrite)
        if summary.created + summary.updated > 0 { context.didChangeTasks() }
        for (task, field, was) in summary.overwritten {
            print("overwrote \(task.short) \(field.rawValue): was '\(Sanitizer.visible(TerminalWidth.truncate(was.description, to: 60)))'")
        }
        print("imported \(records.count) tasks: \(summary.created) new, \(summary.updated) updated, "
              + "\(summary.kept) kept (newer here), \(summary.unchanged) unchanged")
    }
}
