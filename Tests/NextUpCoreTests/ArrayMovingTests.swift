import Testing
@testable import NextUpCore

@Suite struct ArrayMovingTests {
    final class Box {
        let n: Int
        init(_ n: Int) { self.n = n }
    }

    /// The result is `self + other`; each element of `other` is moved (no
    /// second reference to it is left anywhere), and `other` holds the
    /// placeholder in each of its places.
    @Test func appendingMovesEachElement() {
        for (a, b) in [(0, 0), (0, 3), (5, 0), (7, 300)] {
            var first = (0..<a).map { Box($0) }
            var second = (a..<(a + b)).map { Box($0) }
            let placeholder = Box(-1)
            first.append(moving: &second, leaving: placeholder)
            #expect(first.map(\.n) == Array(0..<(a + b)))
            #expect(second.count == b)
            #expect(second.allSatisfy { $0 === placeholder })
            // Copied elements would still be referenced by `second`.
            for k in first.indices { #expect(isKnownUniquelyReferenced(&first[k])) }
        }
    }

    /// Strings too (what an import's halves hold): equal to `+`.
    @Test func appendingStringsEqualsConcatenation() {
        let a = (0..<50).map { "a long string number \($0) that lives on the heap" }
        let b = (0..<70).map { "another long string, number \($0), on the heap" }
        var first = a, second = b
        first.append(moving: &second, leaving: "")
        #expect(first == a + b)
        #expect(second == Array(repeating: "", count: 70))
    }
}
