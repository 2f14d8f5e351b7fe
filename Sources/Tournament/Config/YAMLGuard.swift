import CYaml
import LabCore

/// Limits a config's YAML is held to before it is composed into nodes, so that a hostile
/// config costs little: the text is read as libyaml's events (a stream, nothing built),
/// counting the nodes the document would have once its aliases are expanded, and how
/// deep it nests.
///
/// An alias bomb (anchors whose aliases repeat each other, 9^7 names from 70 lines) is
/// refused at the alias that would pass ``maxNodes``, before anything is expanded or
/// hashed; a mapping or sequence nested past ``maxDepth`` at its opening.
///
/// The events come from `CYaml`, the libyaml that Yams builds and composes with (its own
/// module, visible to Yams's clients): the very parser that will read the config, so the
/// guard and the composer cannot disagree on what the text means. Yams offers no event
/// API of its own, and its composer shares aliased nodes but hashes mapping keys whole,
/// so a bomb among the keys would hang it before any check on the nodes could run.
enum YAMLGuard {
    /// Bytes a config may hold: configs are a few kilobytes.
    static let maxBytes = 1 << 20
    /// Nodes (scalars, sequences, mappings) a config may expand to, aliases counted at
    /// the size of what they repeat.
    static let maxNodes = 100_000
    /// Sequences and mappings inside each other.
    static let maxDepth = 64

    /// Refuses `text` (from `path`, for messages) when it expands past ``maxNodes`` or
    /// nests past ``maxDepth``. A syntax error ends the scan quietly: composing the text
    /// reports it, with its place, as before.
    static func check(_ text: String, path: String) throws(InputError) {
        var bytes = Array(text.utf8)
        bytes.append(0)
        let count = bytes.count - 1
        let result: InputError? = bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, count)
            return scan(&parser, path: path)
        }
        if let result { throw result }
    }

    /// One open sequence or mapping: its anchor (if any) and its nodes so far.
    private struct Frame {
        var anchor: String?
        var nodes: Int
    }

    private static func deep(_ place: String) -> InputError {
        InputError("\(place): the config nests sequences and mappings more than \(maxDepth) deep; "
            + "a config is a mapping of fields a few levels deep")
    }

    private static func scan(_ parser: inout yaml_parser_t, path: String) -> InputError? {
        var anchors: [String: Int] = [:]
        var stack: [Frame] = []
        var expanded = 0
        var event = yaml_event_t()
        func place(_ mark: yaml_mark_t) -> String { "\(path):\(mark.line + 1):\(mark.column + 1)" }
        func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        }
        func add(_ nodes: Int) { if !stack.isEmpty { stack[stack.count - 1].nodes += nodes } }
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                // libyaml stops at 1,000 levels itself, in its own words (naming its API):
                // said in ours. Any other syntax error is composing's to report.
                let problem = parser.problem.map { String(cString: $0) } ?? ""
                return problem.contains("nesting level") ? deep(place(parser.problem_mark)) : nil
            }
            defer { yaml_event_delete(&event) }
            let mark = event.start_mark
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return nil
            case YAML_SCALAR_EVENT:
                expanded += 1
                add(1)
                if let anchor = text(event.data.scalar.anchor) { anchors[anchor] = 1 }
            case YAML_ALIAS_EVENT:
                let name = text(event.data.alias.anchor) ?? ""
                // An undefined alias is composing's error to report.
                let size = anchors[name] ?? 1
                expanded += size
                add(size)
                if expanded > maxNodes {
                    return InputError("\(place(mark)): the alias *\(String(name.prefix(40))) takes the config past \(maxNodes) YAML "
                        + "nodes once its aliases are expanded; anchors and aliases may repeat small parts only (a config "
                        + "is a few hundred nodes)")
                }
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                expanded += 1
                let anchor = event.type == YAML_SEQUENCE_START_EVENT
                    ? text(event.data.sequence_start.anchor) : text(event.data.mapping_start.anchor)
                stack.append(Frame(anchor: anchor, nodes: 1))
                if stack.count > maxDepth { return deep(place(mark)) }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else { continue }
                if let anchor = frame.anchor { anchors[anchor] = frame.nodes }
                add(frame.nodes)
            default:
                continue
            }
            if expanded > maxNodes {
                return InputError("\(place(mark)): the config holds more than \(maxNodes) YAML nodes; a config is a few hundred")
            }
        }
    }
}
