/// Fractional order keys for the Next Up list: strings over the 62 ASCII
/// digits `0-9A-Za-z` that sort in byte order, so that a key can always be made
/// strictly between two others without renumbering anything — two replicas can
/// both insert without coordinating. A valid key is non-empty and never ends in
/// `0` (which is what guarantees a key between any two keys exists). Equal keys
/// made concurrently on two replicas are ordered by task id.
public enum OrderKey {
    static let digits: [Character] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    static let base = 62
    static let index: [Character: Int] = Dictionary(uniqueKeysWithValues: digits.enumerated().map { ($1, $0) })

    public static func isValid(_ key: String) -> Bool {
        !key.isEmpty && key.count <= 1_000 && key.last != "0" && key.allSatisfy { index[$0] != nil }
    }

    /// A key strictly between `lower` and `upper` (nil means open-ended).
    /// Requires `lower < upper` when both are given; both valid keys.
    public static func between(_ lower: String?, _ upper: String?) -> String {
        let a = (lower ?? "").map { index[$0]! }
        let b = upper.map { $0.map { index[$0]! } }
        if let lower, let upper, !lower.isEmpty { precondition(lower < upper, "order keys out of order") }
        if b == nil, !a.isEmpty {
            // Appending (the common case): step the first digit below `z` up by
            // one instead of halving, so keys grow by one character per ~61
            // appends, not per append.
            if let i = a.firstIndex(where: { $0 < base - 1 }) {
                return String((Array(a[..<i]) + [a[i] + 1]).map { digits[$0] })
            }
        }
        return String(midpoint(a, b).map { digits[$0] })
    }

    /// `count` keys in increasing order, all strictly between `lower` and `upper`.
    public static func keys(count: Int, between lower: String?, _ upper: String?) -> [String] {
        var result: [String] = []
        var low = lower
        for _ in 0..<count {
            let k = between(low, upper)
            result.append(k)
            low = k
        }
        return result
    }

    private static func midpoint(_ a: [Int], _ b: [Int]?) -> [Int] {
        if let b {
            var n = 0
            while n < b.count, (n < a.count ? a[n] : 0) == b[n] { n += 1 }
            if n > 0 {
                return Array(b[0..<n]) + midpoint(Array(a.dropFirst(n)), Array(b.dropFirst(n)))
            }
        }
        let da = a.first ?? 0
        let db = b?.first ?? base
        if db - da > 1 {
            return [(da + db) / 2]
        }
        if let b, b.count > 1 {
            return [b[0]]
        }
        return [da] + midpoint(Array(a.dropFirst()), nil)
    }
}
