import Testing
@testable import NextUpCore

/// Rearranging by positions is mapping them: for permutations (moved in
/// place) and for anything else (copied).
@Suite struct RearrangedTests {
    @Test func rearrangingIsMappingThePositions() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let items = (0..<Int.random(in: 0...40, using: &rng)).map { "item \($0) ☕" }
            var positions = Array(items.indices).shuffled(using: &rng)
            if !items.isEmpty, Bool.random(using: &rng) {
                // Not a permutation: one repeated, or one left out.
                if Bool.random(using: &rng) { positions[0] = positions[positions.count - 1] } else { positions.removeLast() }
            }
            #expect(items.rearranged(by: positions) == positions.map { items[$0] }, "\(positions)")
        }
    }
}
