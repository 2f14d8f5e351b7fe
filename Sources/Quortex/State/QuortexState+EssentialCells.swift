import LabCore

/// An essential cell's legal rotations (rule book, "Legal placement"): which of the drawn
/// tile's rotations keep every axis the cell is essential on joined, or complete a flow.
/// ``analyseTurn(deferring:)`` asks it of each essential cell; every other empty cell
/// takes every rotation.
extension QuortexState {
    /// The rotations (bit r) of `type`, among `rotations`, that may go on essential cell
    /// `cell`: the ones completing a flow, and the ones keeping every axis the cell is
    /// essential on (bit k of `axes` for axis k) joined.
    ///
    /// How the six sides connect outside the cell decides it: a side's chain may come
    /// back into the cell by another side, lead to a port of a board edge, or lead into a
    /// part of the board without the cell (one search per distinct part). A tile there
    /// joins its sides in pairs; an axis stays joined exactly when, through pairs and
    /// these outside connections, the sides reaching the start edge reach the sides
    /// reaching the target edge (the cell is essential, so without it they are apart).
    /// Everything is kept in locals (a struct of these facts was copied whole into the
    /// rotation check at each call).
    /// - Parameter startRegion: for a cell essential on one axis, the cells its start edge
    ///   reaches without the cell (the route search's Bi), or 0: a side leading into it
    ///   reaches the start edge, and its part needs no search.
    static func legalRotations<S: CellBits>(of cell: Int, graph: JunctionGraph<S>, ends: UnsafePointer<UInt16>, type: Int,
                                            rotations: Int, axes: Int, liveAxes: Int,
                                            partnerMask: UnsafeMutablePointer<UInt8>, startRegion: S = 0) -> Int {
        let without = graph.empty & ~S.bit(cell)
        let base = cell &* 6
        // Byte d of `loop`: side d, and the side its chain comes back by; byte e of `ports`:
        // the sides whose chains end at a port of edge e; `startSides`: the sides leading
        // into the start region; the distinct parts the others lead into, and their sides.
        var loop: UInt64 = 0x2010_0804_0201, ports: UInt64 = 0, startSides: UInt8 = 0
        var parts = InlineArray<6, S>(repeating: 0), partSides = InlineArray<6, UInt8>(repeating: 0), partCount = 0
        for d in 0..<6 {
            let end = ends[base &+ d]
            let x = SideEnd.target(end)
            if x >= Junctions.portBase {
                ports |= UInt64(1 &<< d) &<< UInt64((x &- Junctions.portBase) &* 8)
            } else if x == cell {
                loop |= UInt64(1) &<< (SideEnd.entering(end) &+ d &* 8)
            } else if startRegion & S.bit(x) != 0 {
                startSides |= UInt8(1) << d
            } else {
                let bit = S.bit(x)
                var p = 0
                while p < partCount && parts[p] & bit == 0 { p &+= 1 }
                if p == partCount {
                    parts[p] = graph.reach(from: bit, allowed: without)
                    partCount &+= 1
                }
                partSides[p] |= UInt8(1) << d
            }
        }
        // Byte d: the sides joined to side d outside the cell without an edge: itself,
        // the side a chain comes back by, or every side leading into the same part.
        var joined = loop
        for p in 0..<partCount { joined = setting(joined, lanes: partSides[p], to: partSides[p]) }
        // Per axis the cell is essential on (n of them): the sides reaching each edge
        // (byte i of `start` and `target`), and each side's class with those two merged.
        var start: UInt32 = 0, target: UInt32 = 0
        var classes = InlineArray<3, UInt64>(repeating: 0)
        var n = 0, flowAxes = 0
        for axis in 0..<3 where liveAxes & (1 << axis) != 0 {
            var s = UInt8(truncatingIfNeeded: ports &>> UInt64(axis &* 8))
            var t = UInt8(truncatingIfNeeded: ports &>> UInt64(axis &* 8 &+ 24))
            if s != 0 && t != 0 { flowAxes |= 1 << axis }
            guard axes & (1 << axis) != 0 else { continue }
            s |= startSides
            let startCells = graph.touching(axis), targetCells = graph.touching(axis &+ 3)
            for p in 0..<partCount {
                if parts[p] & startCells != 0 { s |= partSides[p] }
                if parts[p] & targetCells != 0 { t |= partSides[p] }
            }
            start |= UInt32(s) &<< UInt32(n &* 8)
            target |= UInt32(t) &<< UInt32(n &* 8)
            classes[n] = setting(setting(joined, lanes: t, to: t), lanes: s, to: s)
            n &+= 1
        }
        var legal = 0
        var r = rotations
        rotationLoop: while r != 0 {
            let rotation = r.trailingZeroBitCount
            r &= r &- 1
            let pairs = partnerMask + (type &* 6 &+ rotation) &* 64
            var f = flowAxes
            while f != 0 {
                let axis = f.trailingZeroBitCount
                f &= f &- 1
                if connects(UInt8(truncatingIfNeeded: ports &>> UInt64(axis &* 8)),
                            UInt8(truncatingIfNeeded: ports &>> UInt64(axis &* 8 &+ 24)), pairs: pairs, classes: loop) {
                    legal |= 1 << rotation
                    continue rotationLoop
                }
            }
            for i in 0..<n where !connects(UInt8(truncatingIfNeeded: start &>> UInt32(i &* 8)),
                                           UInt8(truncatingIfNeeded: target &>> UInt32(i &* 8)), pairs: pairs, classes: classes[i]) {
                continue rotationLoop
            }
            legal |= 1 << rotation
        }
        return legal
    }

    /// `bytes` with byte d set to `value` for every bit d of `lanes`.
    @inline(__always)
    static func setting(_ bytes: UInt64, lanes: UInt8, to value: UInt8) -> UInt64 {
        // Byte d keeps bit d of `lanes`; then each non-zero byte becomes 0xFF.
        let spread = (UInt64(lanes) &* 0x0101_0101_0101_0101) & 0x8040_2010_0804_0201
        let high = (spread | ((spread & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F)) & 0x8080_8080_8080_8080
        let mask = (high &>> 7) &* 0xFF
        return bytes & ~mask | (UInt64(value) &* 0x0101_0101_0101_0101) & mask
    }

    /// Whether the sides `from` reach the sides `to` through the tile's pairs and the
    /// outside connections `classes` (byte d: the sides joined to side d).
    @inline(__always)
    static func connects(_ from: UInt8, _ to: UInt8, pairs: UnsafeMutablePointer<UInt8>, classes: UInt64) -> Bool {
        if from == 0 || to == 0 { return false }
        var reached = from
        while true {
            var next = reached | pairs[Int(reached)]
            var m = next & ~reached
            while m != 0 {
                next |= UInt8(truncatingIfNeeded: classes &>> (UInt64(m.trailingZeroBitCount) &* 8))
                m &= m &- 1
            }
            if next & to != 0 { return true }
            if next == reached { return false }
            reached = next
        }
    }
}
