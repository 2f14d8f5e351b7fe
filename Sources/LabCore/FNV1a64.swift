/// The FNV-1a 64-bit hash: the checksum of model files' weights and of files compiled into
/// the program.
public struct FNV1a64: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    @inline(__always)
    public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// The hash of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var h = FNV1a64()
        for byte in bytes { h.add(byte) }
        return h.value
    }
}
