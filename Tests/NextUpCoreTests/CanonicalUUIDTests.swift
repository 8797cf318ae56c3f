import Foundation
import Testing
@testable import NextUpCore

/// The fast path for ids read back from the store must accept exactly what
/// Foundation's parser accepts in canonical form, and nothing else.
struct CanonicalUUIDTests {
    @Test func canonicalLowercaseUUIDsAreRecognised() {
        for _ in 0..<200 {
            let canonical = UUID().uuidString.lowercased()
            #expect(CanonicalUUID.isCanonical(canonical))
            #expect(TaskID(canonical)?.rawValue == canonical)
            #expect(ReplicaID(canonical)?.rawValue == canonical)
        }
    }

    @Test func otherSpellingsTakeTheSlowPathAndStillCanonicalise() {
        let canonical = "6301bbfc-a0c5-454e-8ff9-bb510944fe0c"
        for spelling in [canonical.uppercased(), "6301BBFC-a0c5-454e-8ff9-bb510944fe0c"] {
            #expect(!CanonicalUUID.isCanonical(spelling))
            #expect(TaskID(spelling)?.rawValue == canonical)
            #expect(ReplicaID(spelling)?.rawValue == canonical)
        }
    }

    @Test func nearMissesAreRejected() {
        for bad in ["", "6301bbfc", "6301bbfc-a0c5-454e-8ff9-bb510944fe0", "6301bbfc-a0c5-454e-8ff9-bb510944fe0c0",
                    "6301bbfca0c5-454e-8ff9-bb510944fe0c-", "g301bbfc-a0c5-454e-8ff9-bb510944fe0c",
                    "6301bbfc_a0c5-454e-8ff9-bb510944fe0c", "6301bbfc-a0c5-454e-8ff9-bb510944fé0c"] {
            #expect(!CanonicalUUID.isCanonical(bad), "\(bad)")
            #expect(TaskID(bad) == nil, "\(bad)")
        }
    }
}
