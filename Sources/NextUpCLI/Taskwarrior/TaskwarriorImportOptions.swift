import ArgumentParser
import NextUpCore

/// The import-only choices of `import --from taskwarrior`.
struct TaskwarriorImportOptions: ParsableArguments {
    @Flag(help: "With --from taskwarrior: import the tasks that can be, and list the ones skipped.")
    var skipInvalid = false
}

extension TaskwarriorImportOptions {
    /// Without `--skip-invalid`, a file with bad items imports nothing: each
    /// is named on its own line of standard error and the last line (thrown)
    /// says how many, so the exit is non-zero.
    func check(_ read: TaskwarriorImport) throws {
        guard !skipInvalid, !read.bad.isEmpty else { return }
        let rest = read.records.isEmpty ? "" : "; --skip-invalid imports the other \(read.records.count)"
        if read.bad.count == 1 { throw CLIError("\(read.bad[0]); nothing imported\(rest)") }
        for line in read.bad { Terminal.printError("nextup: \(Sanitizer.visible(line))") }
        throw CLIError("\(read.bad.count) tasks cannot be imported; nothing imported\(rest)")
    }
}
