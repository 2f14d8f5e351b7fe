import LabCore
import Testing
import Tournament

/// Expected tables are written out by hand, never computed with the code under test.
@Suite("Schedule, shards and CSV")
struct ScheduleTests {
    // MARK: Tables

    @Test("round robin, 3 entrants at 2 seats: every pair once, in order")
    func roundRobinThreeTwo() throws {
        let schedule = try Schedule(entrants: 3, seats: 2, format: .roundRobin, candidate: nil, blocksPerTable: 4)
        #expect(schedule.tables == [[0, 1], [0, 2], [1, 2]])
        #expect(schedule.blockCount == 12)
        #expect(schedule.matchesPerBlock == 2)
    }

    @Test("round robin, 5 entrants at 4 seats: the 5 ways to leave one out")
    func roundRobinFiveFour() throws {
        let schedule = try Schedule(entrants: 5, seats: 4, format: .roundRobin, candidate: nil, blocksPerTable: 3)
        #expect(schedule.tables.count == 5)
        #expect(schedule.tables == [[0, 1, 2, 3], [0, 1, 2, 4], [0, 1, 3, 4], [0, 2, 3, 4], [1, 2, 3, 4]])
        #expect(schedule.blockCount == 15)
        #expect(schedule.matchesPerBlock == 4)
    }

    @Test("round robin with as many entrants as seats: one table of everybody")
    func roundRobinExact() throws {
        let schedule = try Schedule(entrants: 3, seats: 3, format: .roundRobin, candidate: nil, blocksPerTable: 1)
        #expect(schedule.tables == [[0, 1, 2]])
    }

    @Test("gauntlet: the candidate at every table with seats - 1 different others",
          arguments: [(entrants: 4, seats: 2, candidate: 0, tables: 3),
                      (entrants: 4, seats: 2, candidate: 2, tables: 3),
                      (entrants: 5, seats: 3, candidate: 1, tables: 6),
                      (entrants: 6, seats: 4, candidate: 5, tables: 10)])
    func gauntlet(_ entrants: Int, _ seats: Int, _ candidate: Int, _ tableCount: Int) throws {
        let schedule = try Schedule(entrants: entrants, seats: seats, format: .gauntlet, candidate: candidate, blocksPerTable: 2)
        #expect(schedule.tables.count == tableCount)
        var seen = Set<[Int]>()
        for table in schedule.tables {
            #expect(table.count == seats)
            #expect(table.filter { $0 == candidate }.count == 1, "table \(table)")
            let others = table.filter { $0 != candidate }
            #expect(others.count == seats - 1)
            #expect(Set(others).count == seats - 1, "an entrant twice at \(table)")
            #expect(others.allSatisfy { (0..<entrants).contains($0) })
            #expect(seen.insert(others.sorted()).inserted, "the same opponents twice: \(table)")
        }
    }

    @Test("gauntlet, 4 entrants at 2 seats with candidate 0: written out")
    func gauntletWrittenOut() throws {
        let schedule = try Schedule(entrants: 4, seats: 2, format: .gauntlet, candidate: 0, blocksPerTable: 1)
        #expect(schedule.tables == [[0, 1], [0, 2], [0, 3]])
    }

    @Test("gauntlet without a candidate is an error")
    func gauntletNeedsCandidate() {
        #expect(throws: InputError.self) {
            try Schedule(entrants: 3, seats: 2, format: .gauntlet, candidate: nil, blocksPerTable: 1)
        }
    }

    @Test("fewer entrants than seats is an error that says so",
          arguments: [(2, 3, TournamentFormat.roundRobin), (3, 4, .roundRobin), (1, 2, .roundRobin), (2, 3, .gauntlet)])
    func fewerEntrantsThanSeats(_ entrants: Int, _ seats: Int, _ format: TournamentFormat) {
        do throws(InputError) {
            _ = try Schedule(entrants: entrants, seats: seats, format: format, candidate: 0, blocksPerTable: 1)
            Issue.record("\(entrants) entrants at \(seats) seats was accepted")
        } catch {
            #expect(error.message.contains("\(seats) seats"), "\(error.message)")
            #expect(error.message.contains("\(entrants)"), "\(error.message)")
        }
    }

    // MARK: Rotations and blocks

    @Test("rotations put every entrant of a table in every seat exactly once per block",
          arguments: [(3, 2), (5, 4), (4, 3), (4, 1), (6, 6)])
    func rotationsCoverSeats(_ entrants: Int, _ seats: Int) throws {
        let schedule = try Schedule(entrants: entrants, seats: seats, format: .roundRobin, candidate: nil, blocksPerTable: 1)
        for (t, table) in schedule.tables.enumerated() {
            // seatOf[entrant][seat]: how many rotations put the entrant there.
            var count: [Int: [Int]] = [:]
            for rotation in 0..<schedule.matchesPerBlock {
                let seating = schedule.seating(table: t, rotation: rotation)
                #expect(seating.count == seats)
                #expect(Set(seating) == Set(table), "rotation \(rotation) of table \(table) seats \(seating)")
                for (seat, entrant) in seating.enumerated() {
                    count[entrant, default: Array(repeating: 0, count: seats)][seat] += 1
                }
            }
            for entrant in table {
                #expect(count[entrant] == Array(repeating: 1, count: seats), "entrant \(entrant) at table \(table)")
            }
        }
    }

    @Test("rotation 0 is the table as listed; rotation 1 of three seats shifts by one")
    func rotationWrittenOut() throws {
        let schedule = try Schedule(entrants: 3, seats: 3, format: .roundRobin, candidate: nil, blocksPerTable: 1)
        #expect(schedule.seating(table: 0, rotation: 0) == [0, 1, 2])
        #expect(schedule.seating(table: 0, rotation: 1) == [1, 2, 0])
        #expect(schedule.seating(table: 0, rotation: 2) == [2, 0, 1])
    }

    @Test("match numbers run seats per block without gaps")
    func matchIndices() throws {
        let schedule = try Schedule(entrants: 5, seats: 4, format: .roundRobin, candidate: nil, blocksPerTable: 2)
        var expected = 0
        for block in 0..<schedule.blockCount {
            for rotation in 0..<schedule.matchesPerBlock {
                #expect(schedule.matchIndex(block: block, rotation: rotation) == expected)
                expected += 1
            }
        }
    }

    @Test("table(ofBlock:) cycles the tables, so every prefix covers them evenly")
    func tableOfBlockCycles() throws {
        let schedule = try Schedule(entrants: 5, seats: 4, format: .roundRobin, candidate: nil, blocksPerTable: 3)
        let tables = (0..<schedule.blockCount).map { schedule.table(ofBlock: $0) }
        #expect(tables == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        for table in 0..<5 { #expect(tables.filter { $0 == table }.count == 3) }
        let three = try Schedule(entrants: 3, seats: 2, format: .roundRobin, candidate: nil, blocksPerTable: 2)
        #expect((0..<three.blockCount).map { three.table(ofBlock: $0) } == [0, 1, 2, 0, 1, 2])
    }

    @Test("deal seeds differ between blocks and depend on the master seed")
    func dealSeeds() {
        let seeds = (0..<1000).map { Schedule.dealSeed(master: 42, block: $0) }
        #expect(Set(seeds).count == 1000)
        #expect(Schedule.dealSeed(master: 42, block: 7) == Schedule.dealSeed(master: 42, block: 7))
        #expect(Schedule.dealSeed(master: 42, block: 7) != Schedule.dealSeed(master: 43, block: 7))
    }

    // MARK: Shards

    @Test("blocks(shard:) partitions the blocks: each in exactly one shard, in increasing order",
          arguments: [1, 3, 7], [(3, 2, 4), (5, 4, 3), (3, 2, 2), (3, 2, 1)])
    func shardsPartition(_ count: Int, _ shape: (entrants: Int, seats: Int, blocksPerTable: Int)) throws {
        let schedule = try Schedule(entrants: shape.entrants, seats: shape.seats, format: .roundRobin, candidate: nil,
                                    blocksPerTable: shape.blocksPerTable)
        var owner = Array(repeating: 0, count: schedule.blockCount)
        for index in 1...count {
            let blocks = Array(schedule.blocks(shard: try Shard(index: index, count: count)))
            #expect(blocks == blocks.sorted(), "shard \(index)/\(count) out of order")
            for block in blocks {
                try #require((0..<schedule.blockCount).contains(block), "shard \(index)/\(count) has block \(block)")
                owner[block] += 1
            }
        }
        #expect(owner == Array(repeating: 1, count: schedule.blockCount), "blocks per shard count: \(owner)")
    }

    @Test("shard 2/3 of 12 blocks, written out; the whole run is every block")
    func shardWrittenOut() throws {
        let schedule = try Schedule(entrants: 3, seats: 2, format: .roundRobin, candidate: nil, blocksPerTable: 4)
        #expect(Array(schedule.blocks(shard: try Shard(index: 2, count: 3))) == [1, 4, 7, 10])
        #expect(Array(schedule.blocks(shard: .whole)) == Array(0..<12))
    }

    @Test("Shard.parse reads K/N")
    func parseKN() throws {
        let shard = try Shard.parse("2/3", environment: [:])
        #expect(shard.index == 2)
        #expect(shard.count == 3)
        #expect(shard.description == "2/3")
        #expect(try Shard.parse("1/1", environment: [:]) == .whole)
        #expect(try Shard.parse("3/3", environment: [:]) == Shard(index: 3, count: 3))
    }

    @Test("Shard.parse refuses what is not K/N with 1 <= K <= N",
          arguments: ["0/3", "4/3", "a/b", "3", "", "/3", "2/", "1/0", "-1/3", "1/2/3", "2 / 3", "Auto"])
    func parseRefuses(_ text: String) {
        #expect(throws: InputError.self) { try Shard.parse(text, environment: [:]) }
    }

    @Test("Shard(index:count:) refuses an index outside 1...count")
    func shardInit() {
        #expect(throws: InputError.self) { try Shard(index: 0, count: 3) }
        #expect(throws: InputError.self) { try Shard(index: 4, count: 3) }
        #expect(throws: InputError.self) { try Shard(index: 1, count: 0) }
    }

    @Test("auto from a Slurm array: the task id counted from SLURM_ARRAY_TASK_MIN",
          arguments: [(["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "3"], 3, 4),
                      (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"], 1, 4),
                      (["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"], 4, 4),
                      (["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"], 1, 2),
                      (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"], 2, 2)])
    func autoSlurm(_ environment: [String: String], _ index: Int, _ count: Int) throws {
        let shard = try Shard.parse("auto", environment: environment)
        #expect(shard == (try Shard(index: index, count: count)))
    }

    @Test("auto from a Kubernetes Indexed Job: JOB_COMPLETION_INDEX from 0 of OPLAB_SHARD_COUNT",
          arguments: [("0", "4", 1), ("3", "4", 4), ("1", "2", 2)])
    func autoKubernetes(_ index: String, _ count: String, _ expected: Int) throws {
        let shard = try Shard.parse("auto", environment: ["JOB_COMPLETION_INDEX": index, "OPLAB_SHARD_COUNT": count])
        #expect(shard.index == expected)
        #expect(shard.count == Int(count))
    }

    @Test("auto prefers the Slurm variables when both are set")
    func autoBoth() throws {
        let shard = try Shard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3",
                                                          "JOB_COMPLETION_INDEX": "0", "OPLAB_SHARD_COUNT": "5"])
        #expect(shard == (try Shard(index: 3, count: 3)))
    }

    @Test("auto is an error without the variables, with half of them, or out of range",
          arguments: [[:],
                      ["HOME": "/root", "PATH": "/bin"],
                      ["SLURM_ARRAY_TASK_ID": "1"],
                      ["JOB_COMPLETION_INDEX": "1"],
                      ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"],
                      ["JOB_COMPLETION_INDEX": "4", "OPLAB_SHARD_COUNT": "4"],
                      ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "2"]])
    func autoRefuses(_ environment: [String: String]) {
        #expect(throws: InputError.self) { try Shard.parse("auto", environment: environment) }
    }

    @Test("auto with neither variable names both")
    func autoNeitherMessage() {
        do throws(InputError) {
            _ = try Shard.parse("auto", environment: [:])
            Issue.record("auto without the environment was accepted")
        } catch {
            #expect(error.message.contains("SLURM_ARRAY_TASK_ID"), "\(error.message)")
            #expect(error.message.contains("JOB_COMPLETION_INDEX"), "\(error.message)")
        }
    }

    // MARK: CSV

    @Test("CSV.line leaves plain fields alone and ends with a newline")
    func linePlain() {
        #expect(CSV.line(["a", "b", "", "3.5"]) == "a,b,,3.5\n")
        #expect(CSV.line(["heuristic", "shipped-cpu"]) == "heuristic,shipped-cpu\n")
    }

    @Test("CSV.line quotes a field with a comma or a quote and doubles its quotes")
    func lineQuotes() {
        #expect(CSV.line(["a,b", "c"]) == "\"a,b\",c\n")
        #expect(CSV.line(["say \"hi\""]) == "\"say \"\"hi\"\"\"\n")
        #expect(CSV.line(["h(p=\"0.5\", q=1)", "x"]) == "\"h(p=\"\"0.5\"\", q=1)\",x\n")
        #expect(CSV.quote("\"") == "\"\"\"\"")
        #expect(CSV.quote("plain") == "plain")
    }

    @Test("CSV quotes a field with a line break, CRLF included (one Character in Swift)")
    func csvQuotesLineBreaks() {
        #expect(CSV.quote("a\r\nb") == "\"a\r\nb\"")
        #expect(CSV.quote("a\nb") == "\"a\nb\"")
        #expect(CSV.quote("a\rb") == "\"a\rb\"")
    }

    @Test("CSV.fields reads back what CSV.line wrote",
          arguments: [["a", "b", "c"],
                      ["a,b", "c"],
                      ["", "", ""],
                      ["say \"hi\"", "x,y", "\"", ","],
                      ["heuristic(missionProbability=0.5, other=2)", "cpu, tuned", "7"],
                      ["\"quoted\"", "\"\"", "a\"b"],
                      ["ünïcödé, ok", "x"]])
    func roundTrip(_ fields: [String]) throws {
        let line = CSV.line(fields)
        #expect(line.hasSuffix("\n"))
        let read = try #require(CSV.fields(line.dropLast()))
        #expect(read == fields, "line was \(line)")
    }

    @Test("CSV.fields splits plain and quoted fields")
    func fieldsWrittenOut() {
        #expect(CSV.fields("a,b,,c") == ["a", "b", "", "c"])
        #expect(CSV.fields("\"a,b\",c") == ["a,b", "c"])
        #expect(CSV.fields("x,\"say \"\"hi\"\"\"") == ["x", "say \"hi\""])
        #expect(CSV.fields("") == [""])
        #expect(CSV.fields("a,") == ["a", ""])
    }

    @Test("CSV.fields returns nil on an unclosed quote",
          arguments: ["\"abc", "a,\"b", "a,\"b\"\"", "\"", "x,\"y,z"])
    func unclosedQuote(_ line: String) {
        #expect(CSV.fields(Substring(line)) == nil)
    }
}
