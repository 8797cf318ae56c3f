import Testing
@testable import NextUpCore

/// `Timestamps.parse` reads the form nextup writes on a fast path; it must
/// agree with the general parser on every string, valid or not.
struct TimestampParsingTests {
    @Test func writtenTimestampsRoundTripThroughTheFastPath() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let millis = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &rng)
            let text = Timestamps.rfc3339(millis)
            #expect(Timestamps.parseWritten(text) == millis, "\(text)")
            #expect(Timestamps.parse(text) == millis, "\(text)")
        }
    }

    @Test func fastPathAgreesWithTheGeneralParser() {
        let samples = [
            "2026-11-22T10:04:05.123Z", "2024-02-29T23:59:60.999Z", "2023-02-29T00:00:00.000Z",
            "2026-13-01T00:00:00.000Z", "2026-00-10T00:00:00.000Z", "0000-01-01T00:00:00.000Z",
            "2026-11-22T24:00:00.000Z", "2026-11-22T10:60:00.000Z", "2026-11-22t10:04:05.123Z",
            "2026-11-22T10:04:05.123z", "2026-11-22T10:04:05Z", "2026-11-22T10:04:05.1Z",
            "2026-11-22T10:04:05.123+01:00", "2026-11-22T10:04:05.1234Z", "2026-11-22 10:04:05.123Z",
            "２026-11-22T10:04:05.123Z", "2026-11-22T10:04:05.123ZZ", "", "2026-11-22",
        ]
        for text in samples {
            if let fast = Timestamps.parseWritten(text) {
                #expect(fast == Timestamps.parseGeneral(text), "\(text)")
            }
            #expect(Timestamps.parse(text) == Timestamps.parseGeneral(text), "\(text)")
        }
    }

    /// Every one-byte change of a written timestamp (a digit, a separator,
    /// a letter in any place): the fast path says what the general parser says.
    @Test func oneByteChangesAgreeWithTheGeneralParser() {
        var rng = SystemRandomNumberGenerator()
        let replacements = Array("0123456789-T:.Zzt +xé".unicodeScalars)
        for _ in 0..<2_000 {
            let millis = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &rng)
            var scalars = Array(Timestamps.rfc3339(millis).unicodeScalars)
            scalars[Int.random(in: 0..<scalars.count, using: &rng)] = replacements.randomElement(using: &rng)!
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            if let fast = Timestamps.parseWritten(text) {
                #expect(fast == Timestamps.parseGeneral(text), "\(text)")
            }
            #expect(Timestamps.parse(text) == Timestamps.parseGeneral(text), "\(text)")
        }
    }
}
