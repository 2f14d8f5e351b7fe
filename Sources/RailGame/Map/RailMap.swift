import Foundation
import LabCore

/// Card and railroad colours (rule book, "Components").
public enum RailColour: Int, Sendable, CaseIterable {
    case red = 0, blue, yellow, green, black
    /// Railroads only: any single colour pays.
    case grey = 5

    /// The spelling used in map files and traces.
    public var name: String {
        switch self {
        case .red: "red"
        case .blue: "blue"
        case .yellow: "yellow"
        case .green: "green"
        case .black: "black"
        case .grey: "grey"
        }
    }

    /// Card colours: the five colours plus rainbow (index 5).
    public static let cardNames = ["red", "blue", "yellow", "green", "black", "rainbow"]
    /// Index of the rainbow (wild) card.
    public static let rainbow = 5
    /// Cards of each colour in the 74-card deck (12 x 5 + 14 rainbows).
    public static let cardsPerColour: [Int] = [12, 12, 12, 12, 12, 14]
    /// The deck size (74).
    public static let deckSize = 74
}

/// A city on a map.
public struct City: Sendable, Equatable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
}

/// A railroad between two cities (indices into ``RailMap/cities``).
public struct Railroad: Sendable, Equatable {
    public var from: Int
    public var to: Int
    public var length: Int
    public var colour: RailColour
    /// The parallel railroad of a dual path, or -1.
    public var twin: Int
}

/// A mission: join two cities for points.
public struct MissionCard: Sendable, Equatable, Hashable {
    public var from: Int
    public var to: Int
    public var points: Int
}

/// A rail map: cities, railroads and (optionally) an explicit mission list.
///
/// Maps are data: loaded from JSON (``RailMapFile``) and validated. Only the shipped
/// map's file is also compiled in, so `oplab` runs from any folder. Built once, shared
/// read-only by every match that uses it.
public final class RailMap: Sendable {
    public let name: String
    public let cities: [City]
    public let railroads: [Railroad]
    /// The map's own mission list, or nil when missions are generated per match.
    public let missions: [MissionCard]?
    /// The railroads packed in 8 bytes each for the play loop's scans.
    let packed: PackedRailroads
    /// Mission points for every ordered city pair (row-major, `from * count + to`).
    let pointsTable: [UInt8]

    /// Engine limits: the state keeps fixed-size tables of these sizes.
    public static let maxCities = 64
    public static let maxRailroads = 128
    public static let maxMissions = 64
    /// The hand limit: a player holds at most this many cards.
    public static let handLimit = 6
    /// Railroad lengths the rule book allows ("Components": 1..4 slots).
    public static let railroadLengths: ClosedRange<Int> = 1...4
    /// Map bounds (rule book): latitude 35..65 N, longitude -10..45 E.
    public static let latitudeBounds: ClosedRange<Double> = 35...65
    public static let longitudeBounds: ClosedRange<Double> = -10...45

    init(name: String, cities: [City], railroads: [Railroad], missions: [MissionCard]?) {
        self.name = name
        self.cities = cities
        self.railroads = railroads
        self.missions = missions
        var table = [UInt8](repeating: 0, count: cities.count * cities.count)
        for a in cities.indices {
            for b in cities.indices where a != b {
                table[a * cities.count + b] = UInt8(Self.missionPoints(km: Self.distance(cities[a], cities[b])))
            }
        }
        pointsTable = table
        packed = PackedRailroads(railroads)
    }

    deinit { packed.free() }

    /// Index of the city called `name`.
    public func cityIndex(_ name: String) -> Int? { cities.firstIndex(where: { $0.name == name }) }

    /// 1 for the second railroad of a double (its twin comes first), else 0: the lane a
    /// drawing puts it in beside its twin.
    public func lane(of railroad: Int) -> Int {
        let twin = railroads[railroad].twin
        return twin >= 0 && twin < railroad ? 1 : 0
    }

    /// Points of a mission joining `a` and `b` (shipped app's buckets).
    public func missionPoints(_ a: Int, _ b: Int) -> Int { Int(pointsTable[a * cities.count + b]) }

    /// Great-circle distance in km (Haversine, earth radius 6371 km).
    public static func distance(_ a: City, _ b: City) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad
        let dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2)
            + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371 * asin(min(1, sqrt(h)))
    }

    /// Railroad length by the SRS distance rule: < 500 km 1; 500-1000 2; 1000-1500 3;
    /// >= 1500 4.
    public static func ruleLength(km: Double) -> Int {
        km < 500 ? 1 : km < 1000 ? 2 : km < 1500 ? 3 : 4
    }

    /// Mission points by the shipped app's buckets: < 500 km 5; < 1000 8; < 1500 11;
    /// < 2000 14; < 2500 17; otherwise 20.
    public static func missionPoints(km: Double) -> Int {
        switch km {
        case ..<500: 5
        case ..<1000: 8
        case ..<1500: 11
        case ..<2000: 14
        case ..<2500: 17
        default: 20
        }
    }

    /// `London-Paris` style name of a railroad.
    public func railroadName(_ r: Int) -> String {
        "\(cities[railroads[r].from].name)-\(cities[railroads[r].to].name)"
    }
}

/// A railroad in the form the play loop scans.
struct PackedRailroad: Sendable {
    var from: UInt8
    var to: UInt8
    var length: UInt8
    /// ``RailColour`` raw value.
    var colour: UInt8
    /// The dual path's other railroad, or -1.
    var twin: Int16
}

/// The packed railroads, allocated once per map and read without retains or copies,
/// with bitsets of the railroads of each colour and length or less.
struct PackedRailroads: @unchecked Sendable {
    // Immutable after init; owned by the map, which frees it.
    let base: UnsafeMutablePointer<PackedRailroad>
    /// `[c * 64 + n]`: railroads of colour c (``RailColour`` raw value, 5 = grey) and
    /// length n or less, one load where the legal actions' candidates had ANDed a colour's
    /// and a length's mask.
    let payable: UnsafeMutablePointer<UInt128>
    let count: Int
    /// Railroads with a twin (one of a dual path).
    let twinned: UInt128

    init(_ railroads: [Railroad]) {
        count = railroads.count
        twinned = railroads.indices.reduce(0) { railroads[$1].twin >= 0 ? $0 | UInt128(1) << $1 : $0 }
        base = .allocate(capacity: max(1, railroads.count))
        payable = .allocate(capacity: 6 * 64)
        payable.initialize(repeating: 0, count: 6 * 64)
        for (i, r) in railroads.enumerated() {
            (base + i).initialize(to: PackedRailroad(from: UInt8(r.from), to: UInt8(r.to), length: UInt8(r.length), colour: UInt8(r.colour.rawValue), twin: Int16(r.twin)))
            for n in r.length..<64 { payable[r.colour.rawValue * 64 + n] |= UInt128(1) << i }
        }
    }

    func free() {
        base.deallocate()
        payable.deallocate()
    }

    @inline(__always) subscript(index: Int) -> PackedRailroad { base[index] }

    /// Railroads of colour `colour` and length `n` or less (`n` at least 0).
    @inline(__always) func payable(_ colour: Int, _ n: Int) -> UInt128 { payable[colour &* 64 &+ min(n, 63)] }
}
