/// What the bridge remembers about one VTODO (by `UID`), kept in the store
/// (``NextUpStore/TaskStore/bridgeKeyPrefix``): the file's name, the
/// fingerprint of its bytes when the bridge last wrote or read it, the view
/// those bytes gave (its missing extensions filled from before: they meant
/// "no change"), the `SEQUENCE` written last, and whether the file is gone
/// (removed by a client; the task was soft-deleted for it).
public struct BridgeFileState: Codable, Hashable, Sendable {
    public var file: String
    public var hash: String
    public var view: VTodoView
    public var sequence: Int
    public var gone: Bool
    /// Whether the file held every `X-NEXTUP-…` property (when not, the
    /// bridge writes it again so that clients pass them on).
    public var complete: Bool
    /// The file's ``FileStamp`` when the bridge wrote or read those bytes:
    /// while it stands, the file is not read again. Nil in memories from
    /// before stamps (read as before).
    public var stamp: FileStamp?

    public init(file: String, hash: String, view: VTodoView, sequence: Int, gone: Bool = false, complete: Bool = true,
                stamp: FileStamp? = nil) {
        self.stamp = stamp
        self.complete = complete
        self.file = file
        self.hash = hash
        self.view = view
        self.sequence = sequence
        self.gone = gone
    }
}
