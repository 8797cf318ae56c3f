/// Publishing local changes to the peer folder after a command (DESIGN.md §5):
/// wired to the sync engine by the sync layer.
enum PeerPublishing {
    static func publish(_ context: CommandContext) {}
}
