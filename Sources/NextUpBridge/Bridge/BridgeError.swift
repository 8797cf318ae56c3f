import Foundation

/// Why a bridge cycle could not run at all (a file it skips is no error:
/// see ``BridgeReport/skipped``).
public enum BridgeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The vdir does not exist or is not a folder (never created: an
    /// unmounted disk must not silently become an empty local folder).
    case missingFolder(String)
    case unreadable(String, String)

    public var description: String {
        switch self {
        case .missingFolder(let path): return "the vdir \(path) does not exist; create it (or mount it) first"
        case .unreadable(let path, let why): return "cannot read the vdir \(path): \(why)"
        }
    }
}
