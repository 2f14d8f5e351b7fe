import Foundation
import Testing

// The cluster examples in scripts/cluster, run as their cluster would run them: the
// Kubernetes Indexed Job's container command with the environment Kubernetes gives each
// pod, and slurm-shards.sh with a Slurm array task's environment. A real Slurm cluster
// (one node on this machine) runs in scripts/cluster/slurm-local-test.sh.

/// The fields of scripts/cluster/k8s-indexed-job.yaml that decide which shard a pod
/// plays and where it writes, read line by line as the manifest writes them (block
/// style, the command as a flow sequence, one `{name:, mountPath:}` per volume mount).
/// A field that is not found is an error naming it, so a rewritten manifest fails here
/// rather than passing unchecked.
private struct IndexedJobManifest {
    var completionMode: String
    var completions: Int
    var parallelism: Int
    var workingDir: String
    var command: [String]
    var env: [String: String]
    var mountPaths: [String]
    /// The comment's merge command, `oplab merge results/NAME-shard-*-of-N --out ...`.
    var mergeLine: String

    init(path: String) throws {
        let text = String(decoding: try contents(path), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func uncommented(_ line: String) -> String {
            guard let hash = line.firstIndex(of: "#") else { return line }
            return String(line[..<hash])
        }
        func value(of key: String) throws -> String {
            for line in lines.map(uncommented) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix(key + ":") {
                    return trimmed.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                }
            }
            throw ManifestError("\(path): no `\(key):`")
        }
        completionMode = try value(of: "completionMode")
        guard let completions = Int(try value(of: "completions")) else { throw ManifestError("completions is not a number") }
        self.completions = completions
        guard let parallelism = Int(try value(of: "parallelism")) else { throw ManifestError("parallelism is not a number") }
        self.parallelism = parallelism
        workingDir = try value(of: "workingDir")
        // The command is a flow sequence of double-quoted strings: JSON.
        let commandText = try value(of: "command")
        guard let command = try JSONSerialization.jsonObject(with: Data(commandText.utf8)) as? [String] else {
            throw ManifestError("command is not a list of strings: \(commandText)")
        }
        self.command = command
        // env: `- name: X` then `value: Y`, until the next key at the env's indentation.
        var env: [String: String] = [:]
        guard let envStart = lines.firstIndex(where: { uncommented($0).trimmingCharacters(in: .whitespaces) == "env:" }) else {
            throw ManifestError("\(path): no `env:`")
        }
        let envIndent = lines[envStart].prefix(while: { $0 == " " }).count
        var pendingName: String?
        for line in lines[(envStart + 1)...].map(uncommented) {
            let indent = line.prefix(while: { $0 == " " }).count
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if indent <= envIndent && !trimmed.hasPrefix("- ") { break }
            let item = trimmed.hasPrefix("- ") ? String(trimmed.dropFirst(2)) : trimmed
            let unquote = CharacterSet(charactersIn: "\"' ")
            if item.hasPrefix("name:") {
                pendingName = item.dropFirst(5).trimmingCharacters(in: unquote)
            } else if item.hasPrefix("value:"), let name = pendingName {
                env[name] = item.dropFirst(6).trimmingCharacters(in: unquote)
                pendingName = nil
            }
        }
        self.env = env
        mountPaths = lines.map(uncommented).compactMap { line in
            guard let range = line.range(of: "mountPath:") else { return nil }
            return line[range.upperBound...].split(whereSeparator: { $0 == "}" || $0 == "," })
                .first?.trimmingCharacters(in: .whitespaces)
        }
        guard let merge = lines.first(where: { $0.hasPrefix("#") && $0.contains("oplab merge ") }) else {
            throw ManifestError("\(path): no `oplab merge` line in the comment")
        }
        mergeLine = merge.drop(while: { $0 == "#" || $0 == " " }).trimmingCharacters(in: .whitespaces)
    }
}

private struct ManifestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `executable` with `arguments` from `directory` with exactly `environment`.
private func runProcess(_ executable: String, _ arguments: [String], in directory: String,
                        environment: [String: String]) throws -> Run {
    let run = try runProcess(executable, arguments, in: directory, environment: Optional(environment))
    return Run(status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self), stderr: run.stderr)
}

/// This process's environment without what `--shard auto` reads, so that a test run
/// inside a Slurm job or a pod sees only the variables the test sets.
private func environmentWithoutShardVariables() -> [String: String] {
    ProcessInfo.processInfo.environment.filter { name, _ in
        !name.hasPrefix("SLURM_") && name != "JOB_COMPLETION_INDEX" && name != "OPLAB_SHARD_COUNT"
    }
}

/// Copies the repository's `config` (a relative path) into `lab` at the same path.
private func copyConfig(_ config: String, into lab: Scratch) throws {
    let target = lab(config)
    try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                            withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: packageRoot + "/" + config, toPath: target)
}

/// The results folders directly under `folder`, sorted.
private func folders(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
}

@Suite("Cluster examples (scripts/cluster)")
struct ClusterManifestTests {
    static let manifestPath = packageRoot + "/scripts/cluster/k8s-indexed-job.yaml"

    @Test("the Indexed Job manifest sets what --shard auto reads, and writes the shards to its volume")
    func indexedJobManifestFields() throws {
        let manifest = try IndexedJobManifest(path: Self.manifestPath)
        #expect(manifest.completionMode == "Indexed", "JOB_COMPLETION_INDEX is set for Indexed Jobs only")
        // --shard auto reads JOB_COMPLETION_INDEX (Kubernetes sets it) and OPLAB_SHARD_COUNT
        // (the manifest must): the count must be the job's completions.
        #expect(manifest.env["OPLAB_SHARD_COUNT"] == String(manifest.completions),
                "OPLAB_SHARD_COUNT \(manifest.env["OPLAB_SHARD_COUNT"] ?? "unset") is not completions \(manifest.completions)")
        #expect(manifest.env["JOB_COMPLETION_INDEX"] == nil, "Kubernetes sets JOB_COMPLETION_INDEX; the manifest must not")
        #expect(manifest.parallelism >= 1 && manifest.parallelism <= manifest.completions)
        let command = manifest.command
        #expect(Array(command.prefix(2)) == ["oplab", "tournament"], "\(command)")
        let shard = try #require(command.firstIndex(of: "--shard"), "no --shard in \(command)")
        #expect(command.indices.contains(shard + 1) && command[shard + 1] == "auto", "\(command)")
        #expect(command.contains("--resume"), "a restarted pod must resume its shard: \(command)")
        #expect(!command.contains("--out"), "--out would send every pod to one folder: \(command)")
        // The config is in the repository (the image has it under workingDir), and the
        // default folders results/NAME-shard-K-of-N land on the mounted volume.
        let config = try #require(command.dropFirst(2).first, "no config in \(command)")
        #expect(FileManager.default.fileExists(atPath: packageRoot + "/" + config), "\(config) is not in the repository")
        #expect(manifest.mountPaths.contains(manifest.workingDir + "/results"),
                "no volume at \(manifest.workingDir)/results: \(manifest.mountPaths)")
        let name = try configName(packageRoot + "/" + config)
        #expect(manifest.mergeLine.hasPrefix("oplab merge results/\(name)-shard-*-of-\(manifest.completions) "),
                "the comment's merge line does not match the job: \(manifest.mergeLine)")
    }

    @Test("each pod's command and environment plays its own shard; the comment's merge equals one run")
    func indexedJobPodsMergeToOneRun() throws {
        let manifest = try IndexedJobManifest(path: Self.manifestPath)
        let lab = try Scratch("k8s")   // the pod's workingDir
        defer { lab.remove() }
        let config = manifest.command[2]
        try copyConfig(config, into: lab)
        let name = try configName(lab(config))
        let binary = try oplabBinary()
        // The manifest's command as is, small: 16 blocks per table on 1 thread.
        let small = ["--blocks", "16", "--threads", "1", "--quiet"]
        let count = manifest.completions
        for index in 0..<count {
            var environment = environmentWithoutShardVariables().merging(manifest.env) { _, pod in pod }
            environment["JOB_COMPLETION_INDEX"] = String(index)   // what Kubernetes sets in pod `index`
            let run = try runProcess(binary, Array(manifest.command.dropFirst()) + small, in: lab.path, environment: environment)
            try #require(run.status == 0, "pod \(index): \(run.stderr)")
            let folder = lab("results/\(name)-shard-\(index + 1)-of-\(count)")
            let written = (try? folders(in: lab("results"))) ?? []
            try #require(FileManager.default.fileExists(atPath: folder), "pod \(index) did not write \(folder); results holds \(written)")
            #expect(try runRecord(folder)["shard"] as? String == "\(index + 1)/\(count)", "pod \(index)")
        }
        #expect(try folders(in: lab("results")) == (1...count).map { "\(name)-shard-\($0)-of-\(count)" }.sorted())

        // The merge as the comment writes it (the shell expands the glob), against one run.
        let shards = (1...count).map { "results/\(name)-shard-\($0)-of-\(count)" }
        let merge = try runArray(["merge"] + shards + ["--out", "results/\(name)"], in: lab.path)
        try #require(merge.status == 0, "\(merge.stderr)")
        let whole = try runArray(["tournament", config, "--out", "whole"] + small, in: lab.path)
        try #require(whole.status == 0, "\(whole.stderr)")
        try expectSameFiles(lab("whole"), lab("results/\(name)"))
    }

    @Test("without OPLAB_SHARD_COUNT a pod is refused, naming it")
    func indexedJobNeedsShardCount() throws {
        let manifest = try IndexedJobManifest(path: Self.manifestPath)
        let lab = try Scratch("k8s")
        defer { lab.remove() }
        try copyConfig(manifest.command[2], into: lab)
        var environment = environmentWithoutShardVariables()
        environment["JOB_COMPLETION_INDEX"] = "0"
        let run = try runProcess(try oplabBinary(), Array(manifest.command.dropFirst()) + ["--blocks", "2", "--quiet"],
                                 in: lab.path, environment: environment)
        #expect(run.status == 2)
        #expect(run.stderr.contains("OPLAB_SHARD_COUNT"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lab("results")))
    }

    @Test("slurm-shards.sh in a Slurm array task's environment plays that task's shard with the task's CPUs")
    func slurmScriptReadsArrayEnvironment() throws {
        let lab = try Scratch("slurm")   // the job's working folder (sbatch --chdir)
        defer { lab.remove() }
        let config = try lab.config(railConfig(blocks: 6, name: "slurm-env"), name: "tiny.yaml")
        let binary = try oplabBinary()
        var base = environmentWithoutShardVariables()
        // The script runs `oplab` from the PATH.
        base["PATH"] = (binary as NSString).deletingLastPathComponent + ":" + (base["PATH"] ?? "/usr/bin:/bin")
        // An array submitted as --array=4-6: tasks 4, 5, 6 are shards 1, 2, 3 of 3.
        for task in 4...6 {
            var environment = base
            environment["SLURM_ARRAY_TASK_ID"] = String(task)
            environment["SLURM_ARRAY_TASK_MIN"] = "4"
            environment["SLURM_ARRAY_TASK_COUNT"] = "3"
            environment["SLURM_CPUS_PER_TASK"] = "1"
            let run = try runProcess("/bin/bash", [packageRoot + "/scripts/cluster/slurm-shards.sh", config],
                                     in: lab.path, environment: environment)
            try #require(run.status == 0, "task \(task): \(run.stderr)")
            let record = try runRecord(lab("results/slurm-env-shard-\(task - 3)-of-3"))
            #expect(record["shard"] as? String == "\(task - 3)/3")
            #expect(record["threads"] as? Int == 1)
        }
    }
}

/// The `name:` of a config file.
private func configName(_ path: String) throws -> String {
    let text = String(decoding: try contents(path), as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix("name:") {
        return line.dropFirst(5).split(separator: "#").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }
    throw ManifestError("\(path): no name:")
}
