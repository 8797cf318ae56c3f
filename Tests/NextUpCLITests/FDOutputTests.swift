import Foundation
import Glibc
import Testing
@testable import NextUpCLI

/// Output in chunks written by a thread of their own: every byte reaches
/// the file in order, and a failed write is thrown, not lost.
@Suite struct FDOutputTests {
    @Test func chunksReachTheFileInTheOrderAppended() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fdoutput-\(UUID().uuidString)").path
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        var out = FDOutput(fd: fd)
        var expected: [UInt8] = []
        for i in 0..<60_000 {
            let line = Array("line \(i) ☕ \(String(repeating: "x", count: i % 97))\n".utf8)
            out.append(line)
            expected += line
            try out.flushIfFull()
        }
        #expect(expected.count > 3 * FDOutput.chunk)
        try out.flush()
        out.finish()
        close(fd)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))
    }

    /// /dev/full refuses every write: the chunk handed to the writer fails
    /// there, and the next flush says so.
    @Test func aFailedWriteIsThrownByTheNextFlush() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var out = FDOutput(fd: fd)
        out.append([UInt8](repeating: 0x61, count: FDOutput.chunk + 1))
        try out.flushIfFull()  // handed over; the failure comes later
        out.append([0x62])
        #expect(throws: FDOutput.Failure.self) { try out.flush() }
        out.finish()
    }
}
