extension ConfigDocument {
    /// The same document with command-line overrides applied (the locations still point
    /// at the file's fields).
    public func overriding(blocks: Int? = nil, seed: UInt64? = nil) -> ConfigDocument {
        var config = self.config
        if let blocks { config.blocks = blocks }
        if let seed { config.seed = seed }
        return ConfigDocument(path: path, config: config, locations: locations)
    }
}
