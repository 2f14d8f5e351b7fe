import Foundation
import PackagePlugin

/// Compiles files under configs/ into the targets that carry them, at build time, so that
/// `oplab` runs from any folder and when copied alone, and configs/ stays the only copy in
/// the repository: the shipped map into RailGame, the shipped models into LabCatalog.
///
/// Each target gets one generated `EmbeddedConfigs.swift` (in the build folder, never in
/// git) with an `enum EmbeddedConfigs` of `EmbeddedFile`s (and `all`, every one of them);
/// SwiftPM rebuilds it when a file changes. To ship another file, add it to ``files``;
/// a learned model needs only to be in ``learnedFolder`` (named GAME.model, or GAME-N.model
/// for N seats).
@main
struct EmbedConfigs: BuildToolPlugin {
    /// Per target: the Swift name of each file and its path from the package root.
    static let files: [String: [(name: String, path: String)]] = [
        "RailGame": [
            ("trainDepotEurope", "configs/maps/train-depot-europe.json"),
        ],
        "LabCatalog": [
            ("railValue", "configs/models/rail-mlp.model"),
            ("quortexValue", "configs/models/quortex-mlp.model"),
        ],
    ]

    /// Every `*.model` here is embedded into LabCatalog: the shipped learned model of the
    /// game its name says (`connect4.model`; `rail-4.model`: rail at 4 seats).
    static let learnedFolder = "configs/models/learned"

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard var list = Self.files[target.name] else {
            throw EmbedError("EmbedConfigs has no files for target \(target.name); list them in Plugins/EmbedConfigs")
        }
        let root = context.package.directoryURL
        if target.name == "LabCatalog" {
            let folder = root.appending(path: Self.learnedFolder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
            for file in names.sorted() where file.hasSuffix(".model") {
                let base = String(file.dropLast(".model".count))
                list.append(("learned_" + String(base.map { $0.isLetter || $0.isNumber ? $0 : "_" }), Self.learnedFolder + "/" + file))
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedConfigs.swift")
        let inputs = list.map { root.appending(path: $0.path) }
        var arguments = [output.path(percentEncoded: false)]
        for (file, url) in zip(list, inputs) { arguments += [file.name, file.path, url.path(percentEncoded: false)] }
        return [.buildCommand(displayName: "Embedding \(list.map(\.path).joined(separator: ", ")) into \(target.name)",
                              executable: try context.tool(named: "EmbedFiles").url,
                              arguments: arguments, inputFiles: inputs, outputFiles: [output])]
    }
}

struct EmbedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
