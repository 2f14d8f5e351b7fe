/// The rail game's dense action encoding.
///
/// `0` draw a card, `1` draw a mission, `2` pass, and `3 + railroad * 6 + pay` builds
/// `railroad` paying with card colour `pay` (0-4, or 5 for rainbows alone). A coloured
/// railroad has one build action (its own colour); a grey one has one per colour that
/// can pay (rule book, "Build a railroad").
public enum RailAction {
    public static let drawCard = 0
    public static let drawMission = 1
    public static let pass = 2
    static let firstBuild = 3

    /// The build action for `railroad` paid with colour `pay`.
    @inlinable public static func build(_ railroad: Int, pay: Int) -> Int { 3 + railroad * 6 + pay }

    /// Whether `action` builds a railroad.
    @inlinable public static func isBuild(_ action: Int) -> Bool { action >= 3 }

    /// The railroad a build action builds.
    @inlinable public static func railroad(of action: Int) -> Int { (action - 3) / 6 }

    /// The colour a build action pays with (5 = rainbows alone).
    @inlinable public static func payColour(of action: Int) -> Int { (action - 3) % 6 }

    /// Size of the action space for a map with `railroads` railroads.
    @inlinable public static func spaceSize(railroads: Int) -> Int { 3 + railroads * 6 }
}
