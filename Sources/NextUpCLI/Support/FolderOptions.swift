/// The folders a command line named (`--store`, `--peer`, `--vdir`), as plain
/// values: what ``CommandContext`` resolves against the environment and the
/// config file. Nil is "not given on the command line".
///
/// ``GlobalOptions`` (the parser's form) and ``QuickCommandLine`` (the
/// parser-free form of the hottest command lines) both end here, so a command
/// runs the same way whichever parsed it.
struct FolderOptions: Equatable, Sendable {
    var store: String?
    var peer: String?
    var vdir: String?
}
