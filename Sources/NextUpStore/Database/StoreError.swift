import Foundation
import GRDB

/// Why a store operation failed, in words fit for one line after `error: `.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file exists but is not a nextup database; it was left untouched.
    case notANextupDatabase(path: String)
    /// The database was written by a newer nextup; it was left untouched.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The store folder or file cannot be created or written.
    case notWritable(path: String, reason: String)
    /// The file is a nextup store whose pages SQLite cannot read back; it was
    /// left as it is (`nextup recover` sets it aside and rebuilds the store).
    case damaged(path: String)
    /// No task has this id or prefix.
    case unknownTask(String)
    /// A prefix names several tasks.
    case ambiguous(String, matches: [String])
    /// A task reference too short or not shaped like an id.
    case badReference(String)
    /// A task or anchor named for a move within Next Up is not an open Next
    /// Up task: its short id, its title (sanitised) and where it is instead.
    case notInNextUp(String, title: String, state: String)
    /// A task was to be placed before or after itself.
    case besideItself
    /// Any other database failure, described.
    case database(String)

    public var description: String {
        switch self {
        case .notANextupDatabase(let path):
            return "\(path) is not a nextup database; it was left untouched"
        case let .newerSchema(path, found, supported):
            return "\(path) was written by a newer nextup (schema \(found), this one knows up to \(supported)); it was left untouched — upgrade nextup"
        case let .notWritable(path, reason):
            return "cannot write the store at \(path): \(reason)"
        case .damaged(let path):
            return "the store \(path) is damaged (some of its pages cannot be read); `nextup recover` sets it aside and rebuilds it from the peer folder's logs or an export"
        case .unknownTask(let ref):
            return "no task matches '\(ref)'"
        case let .ambiguous(ref, matches):
            let shown = matches.prefix(10).joined(separator: ", ")
            return "'\(ref)' matches \(matches.count) tasks: \(shown)\(matches.count > 10 ? ", …" : "") — type more characters"
        case .badReference(let ref):
            return "'\(ref)' is not a task id: give a full id or at least 4 of its first characters"
        case let .notInNextUp(ref, title, state):
            return "\(ref) “\(title)” is \(state), not in Next Up"
        case .besideItself:
            return "a task cannot be placed before or after itself"
        case .database(let message):
            return "the store failed: \(message)"
        }
    }
}

extension StoreError {
    /// A failure a store call let through, in plain words: a database
    /// failure never reaches a person as SQLite's text or SQL. Nil for an
    /// error that is not the database's.
    public static func plain(_ error: any Error) -> StoreError? {
        if let error = error as? StoreError { return error }
        guard let error = error as? DatabaseError else { return nil }
        let path = OpenStores.shared.anyOpenPath ?? StoreLocation.databaseName
        return TaskStore.storeError(error, path: path, folder: (path as NSString).deletingLastPathComponent)
    }
}
