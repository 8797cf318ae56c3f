import ArgumentParser

/// Parses nextup's command line into the command to run, without the cost
/// swift-argument-parser adds to every start to look for
/// `--generate-completion-script`.
///
/// The contract: ``command(_:)`` returns what `NextUpCommand.parseAsRoot`
/// returns, and throws what it throws, for every argument list — the same
/// command type with the same values, the same error, the same help.
///
/// How: `parseAsRoot` of a root command first parses the arguments twice more,
/// as two hidden commands that take `--generate-completion-script`, to see
/// whether a completion script is asked for (about a seventh of a `count`'s
/// CPU time, mostly the runtime's first conformance look-ups for those
/// commands). The parser skips that probe for a root that names a
/// super-command (`_superCommandName`), and a super-command name changes
/// nothing else but help and usage text. So a command line that does not
/// mention `--generate-completion-script` is parsed first with
/// ``ProbeFreeRoot`` (the root's configuration with a super-command name);
/// its result is used only when it is one of the subcommands, which are the
/// same types parsed by the same definitions. Anything else — an error, help,
/// a version request, the root itself (the TUI) — is parsed again with the
/// real root, so every message and the completion scripts come from
/// `NextUpCommand` as before.
enum CommandLineParse {
    static func command(_ arguments: [String]) throws -> ParsableCommand {
        if !arguments.contains(where: { $0.hasPrefix("--generate-completion-script") }),
           let command = try? ProbeFreeRoot.parseAsRoot(arguments),
           !(command is ProbeFreeRoot),
           NextUpCommand.configuration.subcommands.contains(where: { $0 == type(of: command) }) {
            return command
        }
        return try NextUpCommand.parseAsRoot(arguments)
    }
}

/// `NextUpCommand`'s configuration — the same subcommands, options and
/// texts — marked as a super-command's child so that the parser does not
/// probe for `--generate-completion-script` (see ``CommandLineParse``). Never
/// run: a result of this type is parsed again with the real root.
struct ProbeFreeRoot: ParsableCommand {
    static let configuration: CommandConfiguration = {
        var configuration = NextUpCommand.configuration
        configuration._superCommandName = "nextup"
        return configuration
    }()

    @OptionGroup var global: GlobalOptions

    init() {}
}
