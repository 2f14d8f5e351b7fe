import LabCore
import Testing

@Suite("Did you mean")
struct SuggestionTests {
    @Test("a name that differs only in letter case is the suggestion")
    func letterCase() {
        #expect(Suggestion.nearest(to: "turncap", among: ["initialHand", "turnCap"]) == "turnCap")
    }

    @Test("the nearest name within a third of its length: a swap, a missing or an extra letter")
    func nearby() {
        let commands = ["tournament", "merge", "play", "report", "sprt"]
        #expect(Suggestion.nearest(to: "tournement", among: commands) == "tournament")
        #expect(Suggestion.nearest(to: "spTr", among: commands) == "sprt")
        #expect(Suggestion.nearest(to: "merg", among: commands) == "merge")
        #expect(Suggestion.nearest(to: "plays", among: commands) == "play")
    }

    @Test("a unique name the word begins is suggested; a far or ambiguous word gets none")
    func prefixesAndFarWords() {
        #expect(Suggestion.nearest(to: "missionProb", among: ["missionProbability", "epsilon"]) == "missionProbability")
        #expect(Suggestion.nearest(to: "blas", among: ["mcts", "blas-greedy"]) == "blas-greedy")
        #expect(Suggestion.nearest(to: "chess", among: ["rail", "quortex"]) == nil)
        #expect(Suggestion.nearest(to: "xyz", among: ["rail"]) == nil)
        #expect(Suggestion.didYouMean("chess", among: ["rail"]) == "")
        #expect(Suggestion.didYouMean("rial", among: ["rail"]) == " (did you mean 'rail'?)")
    }
}
