import LabCore
import Testing
import RailGame

/// Rule book, "Missions" and the mission points of "Components".
@Suite("Missions")
struct MissionTests {
    /// Seat 0 owns London-Brussels and Frankfurt-Munich, holds London-Munich (919 km,
    /// 8 points) and one black card: building Brussels-Frankfurt (grey) joins the chain.
    static func chainPosition(_ settings: [String: String] = [:], seats: Int = 2) throws -> (RailState, build: Int) {
        var state = try Rail.quietMatch(seats: seats, settings)
        state.give(try Rail.railroad("London", "Brussels", .red), to: 0)
        state.give(try Rail.railroad("Frankfurt", "Munich", .red), to: 0)
        state.setMission(0, slot: 0, from: try Rail.city("London"), to: try Rail.city("Munich"))
        state.setHand(0, Rail.hand(black: 1))
        return (state, RailAction.build(try Rail.railroad("Brussels", "Frankfurt", .grey), pay: Rail.black))
    }

    @Test func missionCompletesWhenABuildJoinsItsCitiesThroughAChainOfOwnRailroads() throws {
        var (state, build) = try Self.chainPosition()
        #expect(state.completedMissions(0) == 0)
        state.apply(build)
        #expect(state.completedMissions(0) == 1)
        #expect(state.missionPoints(0) == 8)
        #expect(state.heldMissions(0).isEmpty)
        #expect(state.invariantViolation() == nil)
    }

    @Test func missionDoesNotCompleteThroughAnotherSeatsRailroads() throws {
        var state = try Rail.quietMatch()
        state.give(try Rail.railroad("London", "Brussels", .red), to: 0)
        state.give(try Rail.railroad("Frankfurt", "Munich", .red), to: 1)
        state.setMission(0, slot: 0, from: try Rail.city("London"), to: try Rail.city("Munich"))
        state.setHand(0, Rail.hand(black: 1))
        state.apply(RailAction.build(try Rail.railroad("Brussels", "Frankfurt", .grey), pay: Rail.black))
        #expect(state.completedMissions(0) == 0)
        #expect(state.heldMissions(0).count == 1)
    }

    @Test func missionDrawnAlreadyJoinedCompletesAtOnce() throws {
        var state = try Rail.quietMatch()
        state.give(try Rail.railroad("London", "Brussels", .red), to: 0)
        state.pushMission(from: try Rail.city("Brussels"), to: try Rail.city("London"))  // 321 km: 5 points
        let missions = state.missionDeckCount
        state.apply(RailAction.drawMission)
        #expect(state.completedMissions(0) == 1)
        #expect(state.missionPoints(0) == 5)
        #expect(state.heldMissions(0).isEmpty)
        #expect(state.missionDeckCount == missions - 1)
    }

    @Test func completedMissionLeavesItsSlotByDefault() throws {
        var (state, build) = try Self.chainPosition()
        state.setMission(0, slot: 1, from: try Rail.city("Lisbon"), to: try Rail.city("Moscow"))
        state.apply(build)
        #expect(state.observation(for: 0).missionSlotsUsed(0) == 1)
        state.setCurrentSeat(0)
        #expect(Rail.legal(state).contains(RailAction.drawMission))
    }

    @Test func completedMissionKeepsItsSlotWhenCompletedMissionsOccupySlots() throws {
        var (state, build) = try Self.chainPosition(["completedMissionsOccupySlots": "true"])
        state.setMission(0, slot: 1, from: try Rail.city("Lisbon"), to: try Rail.city("Moscow"))
        state.apply(build)
        #expect(state.completedMissions(0) == 1)
        #expect(state.missionPoints(0) == 8)
        #expect(state.observation(for: 0).missionSlotsUsed(0) == 2)
        #expect(state.heldMissions(0).map(\.completed) == [true, false])
        #expect(state.observation(for: 0).activeMissions.count == 1)
        state.setCurrentSeat(0)
        #expect(!Rail.legal(state).contains(RailAction.drawMission))
    }

    @Test func missionPointsFollowTheShippedDistanceBuckets() {
        let buckets: [(km: Double, points: Int)] = [
            (0, 5), (499.9, 5), (500, 8), (999.9, 8), (1000, 11), (1499.9, 11),
            (1500, 14), (1999.9, 14), (2000, 17), (2499.9, 17), (2500, 20), (4000, 20),
        ]
        for (km, points) in buckets {
            #expect(RailMap.missionPoints(km: km) == points, "\(km) km")
        }
    }

    @Test func missionPointsUseTheHaversineDistanceBetweenTheCities() throws {
        let map = try Rail.map()
        let london = try Rail.city("London"), paris = try Rail.city("Paris")
        let km = RailMap.distance(map.cities[london], map.cities[paris])
        #expect(abs(km - 343.556) < 0.01)  // London-Paris on a 6371 km sphere
        #expect(map.missionPoints(london, try Rail.city("Brussels")) == 5)  // 321 km
        #expect(map.missionPoints(london, try Rail.city("Frankfurt")) == 8)  // 638 km
        #expect(map.missionPoints(try Rail.city("Madrid"), try Rail.city("Istanbul")) == 20)  // 2739 km
    }

    @Test func anExplicitMissionListIsTheMissionDeck() throws {
        let map = try Rail.mapWithMissions()
        let listed = try #require(map.missions)
        #expect(listed.last?.points == 42)  // points given in the file win over the buckets
        let state = try RailGame(map: map, seatCount: 4).newMatch(seed: 9)
        let dealt = (0..<4).flatMap { state.heldMissions($0).map(\.mission) }
        #expect(dealt.count == 8)
        #expect(dealt.allSatisfy(listed.contains))
        #expect(Set(dealt.map { "\($0)" }).count == 8)
        #expect(state.missionDeckCount == listed.count - 8)
    }

    @Test func generatedMissionDecksJoinDistinctCitiesWithBucketPoints() throws {
        let map = try Rail.map()
        for seed in 0..<20 {
            let state = try Rail.game(seats: 4).newMatch(seed: UInt64(seed))
            for seat in 0..<4 {
                for held in state.heldMissions(seat) {
                    #expect(held.mission.from != held.mission.to)
                    #expect(held.mission.points == map.missionPoints(held.mission.from, held.mission.to))
                }
            }
        }
    }
}
