import Glibc

/// Bytes on their way to a file descriptor: appended to a buffer that is
/// written out whenever it passes ``chunk``, so a 100,000-task export or
/// `list --json` streams in 1 MB pieces instead of building one string.
struct FDOutput {
    struct Failure: Error { let reason: String }

    let fd: Int32
    var buffer: [UInt8] = []
    static let chunk = 1 << 20

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(Self.chunk + (64 << 10))
    }

    mutating func append(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// Writes the buffer out once it is a chunk or more.
    mutating func flushIfFull() throws {
        if buffer.count >= Self.chunk { try flush() }
    }

    /// Writes everything buffered.
    mutating func flush() throws {
        var failure: String?
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw Failure(reason: failure) }
    }

    /// Standard output, after whatever `print` buffered.
    static func standardOutput(_ body: (inout FDOutput) throws -> Void) throws {
        fflush(nil)
        var out = FDOutput(fd: 1)
        do {
            try body(&out)
            try out.flush()
        } catch let error as Failure {
            throw CLIError("cannot write to standard output: \(error.reason)")
        }
    }
}
