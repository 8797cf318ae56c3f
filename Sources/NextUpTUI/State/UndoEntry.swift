/// One edit of this session that `z` can take back: the write that restores
/// what was there before, and words for the status line.
public struct UndoEntry: Equatable, Sendable {
    public var inverse: Write
    public var description: String

    public init(inverse: Write, description: String) {
        self.inverse = inverse
        self.description = description
    }
}
