import Dispatch
import Glibc
import NextUpCore

/// Bytes on their way to a file descriptor: appended to a buffer that is
/// written out whenever it passes ``chunk``, so a 100,000-task export or
/// `list --json` streams in 1 MB pieces instead of building one string.
/// Each full piece is written by a thread of its own (``ChunkWriter``)
/// while the next is being made — writing 1 MB into a file took as long as
/// making a tenth of it — one piece at a time, in order.
///
/// Contract: the bytes reach `fd` in the order appended; a failed write is
/// thrown by the next ``flushIfFull()`` or ``flush()``; once ``finish()``
/// has returned (every owner calls it, also when it gives up), nothing
/// writes to `fd` any more, so it may be closed.
struct FDOutput {
    struct Failure: Error { let reason: String }

    let fd: Int32
    var buffer: [UInt8] = []
    private let writer: ChunkWriter
    static let chunk = 1 << 20

    init(fd: Int32) {
        self.fd = fd
        writer = ChunkWriter(fd: fd)
        buffer.reserveCapacity(Self.chunk + (64 << 10))
    }

    mutating func append(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// Appends `bytes` (leaving it empty), taking its memory instead of
    /// copying when nothing is buffered; hands what is buffered to the
    /// writer once it is a sixteenth of a chunk or more (a piece made elsewhere,
    /// ``TaskJSONWriter/stream(count:pretty:versions:tasksPerPiece:to:_:)``,
    /// goes out as it is).
    mutating func append(taking bytes: inout [UInt8]) throws {
        if buffer.isEmpty {
            swap(&buffer, &bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
        bytes.removeAll(keepingCapacity: true)
        guard buffer.count >= Self.chunk / 16 else { return }
        let spare = try writer.spare()
        writer.write(exchange(&buffer, with: spare))
    }

    /// Hands the buffer to the writer once it is a chunk or more, and goes
    /// on in the buffer the writer gave back.
    mutating func flushIfFull() throws {
        guard buffer.count >= Self.chunk else { return }
        let spare = try writer.spare()
        writer.write(exchange(&buffer, with: spare))
    }

    /// Writes everything buffered: what the writer has, then the rest.
    mutating func flush() throws {
        _ = try writer.spare()
        if let failure = Self.writeAll(buffer, to: fd) { throw Failure(reason: failure) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Waits for the writer and lets its thread go; call once, last.
    func finish() { writer.stop() }

    /// Writes all of `bytes`; the reason it could not, or nil.
    fileprivate static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        bytes.withUnsafeBytes { raw -> String? in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += n
            }
            return nil
        }
    }

    /// Standard output, after whatever `print` buffered.
    static func standardOutput(_ body: (inout FDOutput) throws -> Void) throws {
        fflush(nil)
        var out = FDOutput(fd: 1)
        defer { out.finish() }
        do {
            try body(&out)
            try out.flush()
        } catch let error as Failure {
            throw CLIError("cannot write to standard output: \(error.reason)")
        }
    }
}

/// The thread that writes an ``FDOutput``'s full chunks, one at a time: it
/// is started with the first chunk, and each chunk's buffer comes back
/// (emptied, its memory kept) as the spare for the one after.
final class ChunkWriter: @unchecked Sendable {
    private let fd: Int32
    /// The next chunk to write, or nil to stop; and the buffer given back.
    private var pending: [UInt8]?
    private var returned: [UInt8] = []
    private var failure: String?
    private var inFlight = false
    private var started = false
    private let work = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(fd: Int32) { self.fd = fd }

    /// Waits for the chunk in flight; returns its emptied buffer (or a new
    /// one), or throws why it could not be written.
    func spare() throws -> [UInt8] {
        if inFlight {
            done.wait()
            inFlight = false
        }
        if let failure { throw FDOutput.Failure(reason: failure) }
        var spare = exchange(&returned, with: [])
        if spare.capacity == 0 { spare.reserveCapacity(FDOutput.chunk + (64 << 10)) }
        return spare
    }

    /// Writes `chunk` on the writer's thread (after ``spare()``: none in flight).
    func write(_ chunk: [UInt8]) {
        pending = chunk
        inFlight = true
        if !started {
            started = true
            OwnThread.start { [self] in run() }
        }
        work.signal()
    }

    /// Waits for the chunk in flight, then ends the thread.
    func stop() {
        if inFlight {
            done.wait()
            inFlight = false
        }
        guard started else { return }
        started = false
        pending = nil
        work.signal()
        done.wait()
    }

    private func run() {
        while true {
            work.wait()
            guard var chunk = pending else { break }
            pending = nil
            if failure == nil, let reason = FDOutput.writeAll(chunk, to: fd) { failure = reason }
            chunk.removeAll(keepingCapacity: true)
            returned = chunk
            done.signal()
        }
        done.signal()
    }
}
