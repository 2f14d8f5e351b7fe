import LabCore

extension ConfigDocument {
    /// The same document with command-line overrides applied. The locations still point
    /// at the file's fields, but an error about an overridden field names its flag and
    /// value (`--blocks 99999999999999999: ...`), not the file's line: the file did not
    /// say it.
    public func overriding(blocks: Int? = nil, seed: UInt64? = nil) -> ConfigDocument {
        var config = self.config
        var overrides = self.overrides
        if let blocks {
            config.blocks = blocks
            overrides["blocks"] = String(blocks)
        }
        if let seed {
            config.seed = seed
            overrides["seed"] = String(seed)
        }
        return ConfigDocument(path: path, config: config, locations: locations, overrides: overrides)
    }

    /// The error of an overridden top-level field, `--FIELD VALUE: message` (a message that
    /// starts by quoting the value, `blocks 99: ...`, without that start); nil for a field
    /// the file gave.
    func overrideError(at field: FieldPath, _ message: String) -> InputError? {
        guard case .key(let key)? = field.components.first, let value = overrides[key] else { return nil }
        let quoted = "\(key) \(value): "
        let reason = message.hasPrefix(quoted) ? String(message.dropFirst(quoted.count)) : message
        return InputError("--\(key) \(value): \(reason)")
    }
}
