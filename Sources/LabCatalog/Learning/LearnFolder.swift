import Evaluators
import Foundation
import LabCore
import Tournament

/// The positions of the last few generations of self-play, which a candidate trains on.
struct ReplayBuffer: Sendable {
    private(set) var positions: [LearnedPosition] = []
    private(set) var generations: [Int] = []

    var count: Int { positions.count }

    /// Adds a generation's positions and drops those more than `window` generations old.
    mutating func append(generation: Int, positions new: [LearnedPosition], window: Int) {
        positions += new
        generations += Array(repeating: generation, count: new.count)
        let keepFrom = generations.firstIndex { $0 > generation - window } ?? generations.count
        if keepFrom > 0 {
            positions.removeFirst(keepFrom)
            generations.removeFirst(keepFrom)
        }
    }

    /// Fills `batch` with positions drawn uniformly (with replacement) by `rng`; with
    /// `symmetries`, each as itself or one of its symmetric images, drawn uniformly too.
    func fill(_ batch: inout PolicyValueBatch, rng: inout LabRandom, symmetries: [FeatureSymmetry] = []) {
        let inputs = batch.inputs.count / batch.rows, actions = batch.policy.count / batch.rows, seats = batch.value.count / batch.rows
        for i in batch.policy.indices {
            batch.policy[i] = 0
            batch.legal[i] = 0
        }
        for r in 0..<batch.rows {
            let p = positions[Int(rng.next() % UInt64(positions.count))]
            let image = symmetries.isEmpty ? 0 : Int(rng.next() % UInt64(symmetries.count + 1))
            if image == 0 {
                for k in 0..<inputs { batch.inputs[r * inputs + k] = p.features[k] }
            } else {
                let symmetry = symmetries[image - 1]
                for k in 0..<inputs { batch.inputs[r * inputs + k] = p.features[symmetry.features[k]] }
            }
            for (a, q) in zip(p.legal, p.policy) {
                let id = image == 0 ? Int(a) : symmetries[image - 1].actions[Int(a)]
                batch.legal[r * actions + id] = 1
                batch.policy[r * actions + id] = q
            }
            for s in 0..<seats { batch.value[r * seats + s] = p.value[s] }
        }
    }

    /// The buffer as bytes (for the checkpoint), and back.
    func encoded(into bytes: inout [UInt8]) {
        LearnFolder.put(Int32(positions.count), &bytes)
        for (p, g) in zip(positions, generations) {
            LearnFolder.put(Int32(g), &bytes)
            LearnFolder.put(Int32(p.legal.count), &bytes)
            for x in p.features { LearnFolder.put(x.bitPattern, &bytes) }
            for a in p.legal { LearnFolder.put(a, &bytes) }
            for q in p.policy { LearnFolder.put(q.bitPattern, &bytes) }
            for v in p.value { LearnFolder.put(v.bitPattern, &bytes) }
        }
    }

    static func decode(_ reader: inout ByteReader, features: Int, seats: Int, actions: Int) throws(InputError) -> ReplayBuffer {
        var buffer = ReplayBuffer()
        let count = Int(try reader.int32())
        guard count >= 0 && count <= 50_000_000 else { throw reader.damaged("a replay buffer of \(count) positions") }
        for _ in 0..<count {
            let generation = Int(try reader.int32())
            let legal = Int(try reader.int32())
            guard legal >= 1 && legal <= actions else { throw reader.damaged("a position with \(legal) legal actions") }
            var p = LearnedPosition(features: [], legal: [], policy: [], value: [])
            p.features = try (0..<features).map { _ throws(InputError) in Float(bitPattern: try reader.uint32()) }
            p.legal = try (0..<legal).map { _ throws(InputError) in try reader.int32() }
            guard p.legal.allSatisfy({ $0 >= 0 && Int($0) < actions }) else { throw reader.damaged("an action id out of range") }
            p.policy = try (0..<legal).map { _ throws(InputError) in Float(bitPattern: try reader.uint32()) }
            p.value = try (0..<seats).map { _ throws(InputError) in Float(bitPattern: try reader.uint32()) }
            buffer.positions.append(p)
            buffer.generations.append(generation)
        }
        return buffer
    }
}

/// Reads a checkpoint's bytes, with errors naming the file.
struct ByteReader {
    let bytes: [UInt8]
    let file: String
    var at = 0

    mutating func uint32() throws(InputError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw damaged("it ends early") }
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(bytes[at + k]) << (8 * k) }
        at += 4
        return v
    }

    mutating func int32() throws(InputError) -> Int32 { Int32(bitPattern: try uint32()) }

    func damaged(_ what: String) -> InputError {
        InputError("\(file): damaged learning checkpoint (\(what)); pass --force to start the learning over")
    }
}

/// What a learning has done: generations, the best network, the buffer, the lines of
/// `generations.csv`. Written whole after each generation (the checkpoint), so that
/// `--resume` after kill -9 goes on from the last complete generation.
struct LearnState {
    var generation: Int
    var best: PolicyValueNet
    /// The network in training and its optimiser (nil before the first step).
    var trainee: PolicyValueNet
    var adam: PolicyValueTrainer.AdamState?
    var buffer: ReplayBuffer
    var records: [GenerationRecord]
    var lines: [String]
}

/// A learning's folder: `best.model`, `generations.csv`, `learn.json`, the checkpoint and
/// the gate's two model files.
struct LearnFolder {
    static let recordFile = "learn.json"
    static let bestFile = "best.model"
    static let candidateFile = "candidate.model"
    static let previousFile = "previous.model"
    static let checkpointFile = "checkpoint.bin"
    static let generationsFile = "generations.csv"
    static let files = [recordFile, bestFile, candidateFile, previousFile, checkpointFile, generationsFile, "report.html"]

    let directory: String
    let request: LearnRequest
    let resume: Bool
    let force: Bool
    let lock: ResultsLock
    let started: String

    init(options: LearnOptions, request: LearnRequest) throws(InputError) {
        directory = options.directory
        self.request = request
        resume = options.resume
        force = options.force
        try OutputPaths.checkFolder(directory, label: "--out \(directory)", record: Self.recordFile, ownFiles: Self.files)
        lock = try ResultsLock(directory: directory)
        started = ISO8601DateFormatter().string(from: Date())
    }

    func path(_ name: String) -> String { directory + "/" + name }

    /// The state to go on from: fresh (`initial` as the best), or the checkpoint of a
    /// resumed learning made with the same request.
    /// - Returns: nil when `--resume` finds the learning done (its record counts the
    ///   generations asked for and the best model is written): its checkpoint, gigabytes
    ///   after a teacher's warm start, is not read for nothing.
    func start(initial: PolicyValueNet) throws(InputError) -> LearnState? {
        let contents = ResultsLock.contents(of: directory).filter { !$0.hasSuffix(".partial") }
        let fresh = LearnState(generation: 0, best: initial, trainee: initial, adam: nil, buffer: ReplayBuffer(), records: [], lines: [])
        if contents.isEmpty {
            try checkpoint(fresh)
            return fresh
        }
        if resume {
            let (record, done) = try readRecord()
            let identity = request.identity
            // Optional lines (teachers, init, symmetries) make the lists' lengths differ.
            let line = { (lines: [String], k: Int) in k < lines.count ? lines[k] : "nothing more" }
            if let k = (0..<max(record.count, identity.count)).first(where: { line(record, $0) != line(identity, $0) }) {
                throw InputError("\(path(Self.recordFile)): the learning there was made with \(line(record, k)), not \(line(identity, k)); "
                    + "resume with the same flags, or pass --force to start over")
            }
            if done >= request.generations && PathKind(of: path(Self.bestFile)) == .file { return nil }
            guard PathKind(of: path(Self.checkpointFile)) == .file else { try checkpoint(fresh); return fresh }
            return try readCheckpoint(initial: initial)
        }
        guard force else {
            throw InputError("\(directory) already holds a learning; pass --resume to go on with it or --force to start over")
        }
        for name in Self.files { try? FileManager.default.removeItem(atPath: path(name)) }
        try checkpoint(fresh)
        return fresh
    }

    /// The request lines of `learn.json` and the generations it counts done.
    private func readRecord() throws(InputError) -> (request: [String], done: Int) {
        let bytes = try BoundedFile.contents(path(Self.recordFile), limit: 1 << 20, what: "the learning's record")
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let identity = object["request"] as? [String] else {
            throw InputError("\(path(Self.recordFile)): not a learning's record (no request); pass --force to start over")
        }
        return (identity, object["generationsDone"] as? Int ?? 0)
    }

    /// Writes the checkpoint, then `generations.csv` and `learn.json`, each whole.
    func checkpoint(_ state: LearnState) throws(InputError) {
        var bytes = Array("oplab-learn-checkpoint 1\n".utf8)
        Self.put(Int32(state.generation), &bytes)
        Self.put(Int32(state.best.parameters.count), &bytes)
        let adam = state.adam ?? PolicyValueTrainer.AdamState(m: state.trainee.parameters.map { _ in 0 }, v: state.trainee.parameters.map { _ in 0 }, step: 0)
        for array in [state.best.parameters, state.trainee.parameters, adam.m, adam.v] {
            for w in array { Self.put(w.bitPattern, &bytes) }
        }
        Self.put(Int32(adam.step), &bytes)
        state.buffer.encoded(into: &bytes)
        let lines = state.lines + state.records.map(\.line)
        try Files.writeAtomically(bytes, to: path(Self.checkpointFile))
        try Files.writeAtomically(([GenerationRecord.header(anchors: request.anchors)] + lines).joined(separator: "\n") + "\n",
                                  to: path(Self.generationsFile))
        try writeRecord(status: state.generation == request.generations ? "complete" : "running", generation: state.generation)
    }

    private func readCheckpoint(initial: PolicyValueNet) throws(InputError) -> LearnState {
        let file = path(Self.checkpointFile)
        let bytes = try BoundedFile.contents(file, limit: 8 << 30, what: "the learning's checkpoint")
        let magic = Array("oplab-learn-checkpoint 1\n".utf8)
        guard bytes.starts(with: magic) else { throw InputError("\(file): not a learning checkpoint; pass --force to start over") }
        var reader = ByteReader(bytes: bytes, file: file, at: magic.count)
        let generation = Int(try reader.int32())
        let count = Int(try reader.int32())
        guard generation >= 0 && generation <= 1_000_000 else { throw reader.damaged("generation \(generation)") }
        guard count == initial.parameters.count else { throw reader.damaged("\(count) weights for a network of \(initial.parameters.count)") }
        var arrays: [[Float]] = []
        for _ in 0..<4 { arrays.append(try (0..<count).map { _ throws(InputError) in Float(bitPattern: try reader.uint32()) }) }
        let step = Int(try reader.int32())
        let shape = initial.shape
        let buffer = try ReplayBuffer.decode(&reader, features: shape.inputs, seats: shape.seats, actions: shape.actions)
        guard reader.at == bytes.count else { throw reader.damaged("bytes after its end") }
        let text = (try? String(contentsOfFile: path(Self.generationsFile), encoding: .utf8)) ?? ""
        let lines = Array(text.split(separator: "\n").dropFirst().prefix(generation).map(String.init))
        return LearnState(generation: generation, best: PolicyValueNet(shape: shape, parameters: arrays[0]),
                          trainee: PolicyValueNet(shape: shape, parameters: arrays[1]),
                          adam: step == 0 ? nil : PolicyValueTrainer.AdamState(m: arrays[2], v: arrays[3], step: step),
                          buffer: buffer, records: [], lines: lines)
    }

    /// `learn.json`: the request (its identity lines), the status, the generations done.
    func writeRecord(status: String, generation: Int) throws(InputError) {
        let object: [String: Any] = [
            "tool": "oplab", "version": OpponentLabVersion.string, "request": request.identity, "status": status,
            "generationsDone": generation, "generations": request.generations, "started": started,
            "updated": ISO8601DateFormatter().string(from: Date()), "blas": BLASKernel.describe(),
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]) else {
            throw InputError("cannot encode \(path(Self.recordFile))")
        }
        try Files.writeAtomically(data + Data("\n".utf8), to: path(Self.recordFile))
    }

    /// Writes `network` as a model file named `name` in the folder.
    func writeModel<G: Game, E: FeatureEncoder>(_ network: PolicyValueNet, shape: PolicyValueShape, game: G, encoder: E, request: LearnRequest,
                                                generation: Int, name: String) throws(InputError) {
        let notes = [ValueModel.Note("learned-by", "oplab learn " + request.identity.joined(separator: "; ")),
                     ValueModel.Note("generation", String(generation)),
                     ValueModel.Note(LearnedModel.searchScaleNote, String(request.cScale))]
            + (request.symmetries ? [ValueModel.Note(LearnedModel.symmetricNote, "true")] : [])
        let model = LearnedModel(game: E.gameName, featureVersion: E.featureVersion, layout: encoder.layoutKey, network: network, notes: notes)
        try model.write(to: path(name))
    }

    func finish() throws(InputError) {
        try? FileManager.default.removeItem(atPath: path(Self.candidateFile))
        try? FileManager.default.removeItem(atPath: path(Self.previousFile))
    }

    static func put(_ v: Int32, _ bytes: inout [UInt8]) { put(UInt32(bitPattern: v), &bytes) }
    static func put(_ v: UInt32, _ bytes: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// `oplab status` of a learning's folder: one line from `learn.json` and the last line of
/// `generations.csv`.
public enum LearnStatus {
    public static let recordFile = LearnFolder.recordFile

    /// `DIR: learning connect4, running, generation 12 of 400, gate accepted 0.590 [0.524, 0.656], updated 4 s ago`;
    /// a running learning no process holds is STALLED (`stalledAfter` is for tournaments).
    public static func line(_ directory: String, stalledAfter: Double) throws(InputError) -> String {
        let path = directory + "/" + recordFile
        let bytes = try BoundedFile.contents(path, limit: 1 << 20, what: "the learning's record")
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let status = object["status"] as? String, let done = object["generationsDone"] as? Int,
              let total = object["generations"] as? Int, let request = object["request"] as? [String],
              (0...1_000_000).contains(done), (1...1_000_000).contains(total) else {
            throw InputError("\(path): not a learning's record this version reads (status, generationsDone, generations, request)")
        }
        let game = request.first?.replacingOccurrences(of: "game: ", with: "") ?? "?"
        var parts = ["\(directory): learning \(game)", status, "generation \(done) of \(total)"]
        let csv = (try? String(contentsOfFile: directory + "/" + LearnFolder.generationsFile, encoding: .utf8)) ?? ""
        let rows = csv.split(separator: "\n")
        if rows.count > 1, let header = rows.first?.split(separator: ",").map(String.init), let last = rows.last?.split(separator: ",").map(String.init),
           header.count == last.count, let gate = header.firstIndex(of: "gate") {
            parts.append("gate \(last[gate]) \(last[gate + 1]) [\(last[gate + 2]), \(last[gate + 3])]")
        }
        if let updated = (object["updated"] as? String).flatMap({ ISO8601DateFormatter().date(from: $0) }) {
            let age = Date().timeIntervalSince(updated)
            parts.append("updated \(Int(max(0, age))) s ago")
            // A generation can outlast any threshold: only a folder no process holds is stalled.
            if status == "running" && ResultsLock.holder(of: directory) == nil {
                parts.append("STALLED (no process holds it; `oplab learn ... --resume` goes on)")
            }
        }
        return parts.joined(separator: ", ")
    }
}
