import NextUpCore

/// Where the UI reads tasks from and sends its writes to: the store, or an
/// in-memory fake in tests.
///
/// Contract: every method may throw; the runtime shows the error in the
/// status line and carries on.
public protocol TaskBackend: AnyObject {
    /// The ids of both lists for `query`, in display order.
    func listIDs(_ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID])
    /// Full rows for some ids (unknown ids are skipped).
    func rows(_ ids: [TaskID]) throws -> [TaskItem]
    /// Performs a write; returns the task written (for an add, the new one).
    func perform(_ write: Write) throws -> TaskID
    /// A number that changes when another connection commits; nil when
    /// unknown (then every signal reloads).
    func changeToken() throws -> Int?
}

extension NextUpPlace {
    /// The order key for this place, given the current keys of the neighbours
    /// (nil when a neighbour is not in Next Up any more) and the last key of
    /// the list. Tolerates neighbours that moved meanwhile.
    public func orderKey(after: String?, before: String?, last: String?) -> String {
        switch self {
        case .end:
            return OrderKey.between(last, nil)
        case .between(let a, let b):
            let lower = a == nil ? nil : after
            let upper = b == nil ? nil : before
            switch (lower, upper) {
            case let (l?, u?) where l < u: return OrderKey.between(l, u)
            case let (l?, _): return OrderKey.between(l, nil)
            case let (nil, u?): return OrderKey.between(nil, u)
            case (nil, nil): return OrderKey.between(last, nil)
            }
        }
    }
}
