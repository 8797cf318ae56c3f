import NextUpSync

/// Publishing local changes to the peer folder after a command (DESIGN.md §5):
/// when a peer folder is configured, the change is appended to this replica's
/// log before the command exits. A failure is a warning on stderr — the change
/// is safe in the store and the next sync publishes it.
enum PeerPublishing {
    static func publish(_ context: CommandContext) {
        guard let peer = context.peerFolder else { return }
        if let warning = PeerPublisher.publish(store: context.store, peerFolder: peer) {
            Terminal.printError("nextup: \(warning)")
        }
    }
}
