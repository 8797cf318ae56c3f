import ArgumentParser

/// The options every command takes (DESIGN.md §4).
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store folder (default: $NEXTUP_HOME, $XDG_DATA_HOME/nextup, ~/.local/share/nextup).", valueName: "dir"))
    public var store: String?

    @Option(name: .long, help: ArgumentHelp("The peer folder shared with other machines (default: $NEXTUP_PEER, or `peer` in the config file).", valueName: "dir"))
    public var peer: String?

    @Option(name: .long, help: ArgumentHelp("The vdir (a folder of .ics files) the phone bridge keeps in step, for vdirsyncer (default: $NEXTUP_VDIR, or `vdir` in the config file).", valueName: "dir"))
    public var vdir: String?

    public init() {}

    /// An empty path is a mistake (an unset shell variable, say), never the
    /// current folder or the default store.
    public func validate() throws {
        for (name, value) in [("--store", store), ("--peer", peer), ("--vdir", vdir)] where value?.isEmpty == true {
            throw ValidationError("\(name) was given an empty path; name a folder")
        }
    }
}
