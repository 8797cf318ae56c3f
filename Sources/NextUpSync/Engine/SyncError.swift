import NextUpStore

/// Why a sync could not run, beyond the peer folder's and the store's own errors.
public enum SyncError: Error, Equatable, CustomStringConvertible {
    /// Another process held the store's sync lock for longer than we waited.
    case busy(String)

    public var description: String {
        switch self {
        case .busy(let path): return "another nextup process is syncing this store (\(path) is locked); try again in a moment"
        }
    }

    /// Plain words for any error a cycle can throw.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as PeerFolderError: return error.description
        case let error as StoreError: return error.description
        case let error as SyncError: return error.description
        case let error as ChangeWatcher.StartError: return error.description
        case let error as LogIssue: return error.description
        default: return String(describing: error)
        }
    }
}
