import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A second process of the bot, talked to with nothing around the pipes: each message
/// written with a blocking write(2), and after each `turn` one reply line read with
/// blocking read(2); no poll, no parsing, no checks. What remains is the pipes, the
/// scheduler and the bot: the floor under the lab's exchange of the same bytes.
final class PingPong {
    private let process = Process()
    /// Kept: their file handles close the descriptors when they go.
    private let input = Pipe(), output = Pipe()
    private let toBot: Int32, fromBot: Int32
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    /// Bytes read and not yet handed out; `start` is the first of them.
    private var pending: [UInt8] = []
    private var start = 0

    /// Starts `argv` (through `/usr/bin/env`, so argv[0] is looked up on PATH as the lab
    /// does) and does the handshake: `hello` written, `ready` read.
    init(argv: [String], hello: [UInt8]) {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = argv
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            fatalError("ProtocolBenchmarks: cannot start \(argv.joined(separator: " ")): \(error)")
        }
        toBot = input.fileHandleForWriting.fileDescriptor
        fromBot = output.fileHandleForReading.fileDescriptor
        pending.reserveCapacity(65_536)
        write(hello)
        _ = readLine()
    }

    /// Writes `messages` in order, reading one reply line after each that expects one;
    /// returns those lines when `keepReplies` (for the setup's check), else nothing.
    func play(_ messages: [Conversation.Message], keepReplies: Bool) -> [[UInt8]] {
        var replies: [[UInt8]] = []
        for message in messages {
            write(message.bytes)
            if message.expectsReply {
                let line = readLine()
                if keepReplies { replies.append(Array(line)) }
            }
        }
        return replies
    }

    /// Sends `quit`, closes the bot's input and waits for its exit.
    func quit() {
        write(Array("{\"type\":\"quit\"}\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func write(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw in Glibc.write(toBot, raw.baseAddress! + sent, raw.count - sent) }
            if n > 0 { sent += n; continue }
            if n < 0 && errno == EINTR { continue }
            fatalError("ProtocolBenchmarks: the ping-pong bot closed its input")
        }
    }

    private func readLine() -> ArraySlice<UInt8> {
        var scanned = start
        while true {
            if let newline = pending[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[start..<newline]
                start = newline + 1
                return line
            }
            if start == pending.count {
                pending.removeAll(keepingCapacity: true)
                start = 0
            }
            scanned = pending.count
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fromBot, $0.baseAddress!, $0.count) }
            if n > 0 { pending.append(contentsOf: chunk[0..<n]); continue }
            if n < 0 && errno == EINTR { continue }
            fatalError("ProtocolBenchmarks: the ping-pong bot closed its output")
        }
    }
}
