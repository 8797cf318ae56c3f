import Foundation
import Testing
@testable import NextUpConfig

/// `LocalTime` reads the local time zone through the C library; it must say
/// what Foundation says, without loading ICU.
@Suite struct LocalTimeTests {
    @Test func offsetAndClockAreFoundations() {
        var millis: Int64 = 1_600_000_000_000
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        for _ in 0..<300 {
            millis += 3_600_000 * 31 + 123_457
            let date = Date(timeIntervalSince1970: Double(millis) / 1000)
            #expect(LocalTime.utcOffsetSeconds(atMillis: millis) == TimeZone.current.secondsFromGMT(for: date))
            #expect(LocalTime.clock(atMillis: millis) == formatter.string(from: date))
        }
    }
}
