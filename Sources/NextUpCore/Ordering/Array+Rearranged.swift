extension Array {
    /// The elements at `positions`, in that order: each moved (swapped) into
    /// place when `positions` names every element exactly once, else copied.
    /// A list of 100,000 tasks in its order was a tenth of `list --json`
    /// when every task was copied (each of its strings retained).
    ///
    /// Contract: equals `positions.map { self[$0] }` (every position in range).
    public consuming func rearranged(by positions: [Int]) -> [Element] {
        guard positions.count == count, var pending = Self.permutationMarks(positions, count: count) else {
            return positions.map { self[$0] }
        }
        // Each cycle of the permutation walked once: position k takes the
        // element at positions[k]; the displaced one travels to the end of the cycle.
        // Swapped through a buffer pointer: moves, where the collection's
        // swap (not specialised across modules) copied both elements.
        withUnsafeMutableBufferPointer { items in
            for start in 0..<items.count where pending[start] {
                var k = start
                while true {
                    pending[k] = false
                    let next = positions[k]
                    if next == start { break }
                    items.swapAt(k, next)
                    k = next
                }
            }
        }
        return self
    }

    /// All true (every position still to place) when `positions` names
    /// each of `0..<count` once; nil otherwise.
    private static func permutationMarks(_ positions: [Int], count: Int) -> [Bool]? {
        var seen = [Bool](repeating: false, count: count)
        for p in positions {
            guard p >= 0, p < count, !seen[p] else { return nil }
            seen[p] = true
        }
        return seen
    }
}
