import LabCore

/// An option a bot declares in `ready` (player protocol, "Messages"): what a user may
/// pass it as `opt.NAME=VALUE`.
public struct BotOption: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case int, float, bool, string }
    public var name: String
    public var kind: Kind
    public var defaultValue: JSONValue?
    public var min: Double?
    public var max: Double?

    /// `value` (as the user wrote it, already typed) as this option takes it, or what is
    /// wrong with it.
    func accept(_ value: JSONValue) -> Acceptance {
        let range = (min.map { "\(BotOption.format($0))" } ?? "") + (min != nil || max != nil ? "..." : "") + (max.map { BotOption.format($0) } ?? "")
        func inRange(_ x: Double) -> Bool { (min.map { x >= $0 } ?? true) && (max.map { x <= $0 } ?? true) }
        switch kind {
        case .int:
            guard let n = value.integer else { return .failure("an int\(range.isEmpty ? "" : " in \(range)")") }
            return inRange(Double(n)) ? .success(value) : .failure("an int in \(range)")
        case .float:
            guard let x = value.double else { return .failure("a float\(range.isEmpty ? "" : " in \(range)")") }
            return inRange(x) ? .success(value) : .failure("a float in \(range)")
        case .bool:
            return value.bool != nil ? .success(value) : .failure("true or false")
        case .string:
            // Sent as the spec types it (a number stays a number): the handshake's hello
            // carried it so, before the bot declared anything.
            switch value {
            case .string, .integer, .number, .bool: return .success(value)
            default: return .failure("a string")
            }
        }
    }

    /// A value taken (as sent) or refused (with what would be accepted).
    enum Acceptance {
        case success(JSONValue)
        case failure(String)
    }

    public static func format(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }

    /// `noise (float 0...1, default 0.1)`.
    public var summary: String {
        var text = "\(name) (\(kind.rawValue)"
        if min != nil || max != nil { text += " \(min.map(Self.format) ?? "")...\(max.map(Self.format) ?? "")" }
        if let d = defaultValue {
            var w = JSONWriter(capacity: 32)
            w.value(d)
            text += ", default " + String(decoding: w.bytes, as: UTF8.self)
        }
        return text + ")"
    }
}

/// What a bot says of itself in `ready`.
public struct BotIdentity: Sendable, Equatable {
    public var name: String
    public var version: String
    /// Whether it asked for `played` messages.
    public var follow: Bool
    public var options: [BotOption]

    /// Reads a `ready` line strictly: a JSON object of type `ready` with a string `name`,
    /// an optional string `version`, an optional boolean `follow` and an optional array of
    /// option declarations; anything else is a `malformed` fault naming the field.
    public static func read(_ line: ArraySlice<UInt8>) throws(BotFault) -> BotIdentity {
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch {
            throw BotFault(.malformed, "its first line is not JSON (\(error)): \(BotProgram.quote(line))")
        }
        guard case .object = value else { throw BotFault(.malformed, "its first line is not a JSON object: \(BotProgram.quote(line))") }
        guard value["type"]?.string == "ready" else {
            throw BotFault(.malformed, "its first line is not {\"type\": \"ready\", ...}: \(BotProgram.quote(line))")
        }
        guard let name = value["name"]?.string else { throw BotFault(.malformed, "ready: 'name' must be a string") }
        var version = ""
        if let v = value["version"] {
            guard let s = v.string else { throw BotFault(.malformed, "ready: 'version' must be a string") }
            version = s
        }
        var follow = false
        if let f = value["follow"] {
            guard let b = f.bool else { throw BotFault(.malformed, "ready: 'follow' must be true or false") }
            follow = b
        }
        var options: [BotOption] = []
        if let list = value["options"] {
            guard case .array(let entries) = list else { throw BotFault(.malformed, "ready: 'options' must be an array") }
            for (i, entry) in entries.enumerated() {
                guard case .object = entry, let optionName = entry["name"]?.string, !optionName.isEmpty else {
                    throw BotFault(.malformed, "ready: options[\(i)] must be an object with a non-empty string 'name'")
                }
                guard let typeName = entry["type"]?.string, let kind = BotOption.Kind(rawValue: typeName) else {
                    throw BotFault(.malformed, "ready: options[\(i)] ('\(optionName)'): 'type' must be one of int, float, bool, string")
                }
                var option = BotOption(name: optionName, kind: kind, defaultValue: entry["default"])
                for bound in ["min", "max"] {
                    guard let b = entry[bound] else { continue }
                    guard let x = b.double, kind == .int || kind == .float else {
                        throw BotFault(.malformed, "ready: options[\(i)] ('\(optionName)'): '\(bound)' must be a number, on an int or float option")
                    }
                    if bound == "min" { option.min = x } else { option.max = x }
                }
                if let d = option.defaultValue, case .failure(let accepted) = option.accept(d) {
                    throw BotFault(.malformed, "ready: options[\(i)] ('\(optionName)'): its default must be \(accepted)")
                }
                if options.contains(where: { $0.name == optionName }) {
                    throw BotFault(.malformed, "ready: option '\(optionName)' declared twice")
                }
                options.append(option)
            }
        }
        return BotIdentity(name: name, version: version, follow: follow, options: options)
    }

    /// The user's options (typed as the spec types them) checked against the declared
    /// ones: an undeclared name, or a value of the wrong type or out of range, is an
    /// error naming the option and what the bot declares.
    public func check(options typed: [(key: String, value: JSONValue)], command: String) throws(InputError) -> [(key: String, value: JSONValue)] {
        var checked: [(key: String, value: JSONValue)] = []
        for (key, value) in typed {
            guard let declared = options.first(where: { $0.name == key }) else {
                let names = options.map(\.name)
                throw InputError("external(command=\"\(command)\"): option '\(key)' is not one the bot declares"
                    + "\(Suggestion.didYouMean(key, among: names)); "
                    + (names.isEmpty ? "it declares none in its ready" : "it declares: \(names.joined(separator: ", "))"))
            }
            switch declared.accept(value) {
            case .success(let v): checked.append((key, v))
            case .failure(let accepted):
                throw InputError("external(command=\"\(command)\"): opt.\(key)=\(BotProgram.written(value)) is not accepted; the bot declares '\(key)' as \(accepted)")
            }
        }
        return checked
    }
}
