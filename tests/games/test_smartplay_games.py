"""SmartPlay's Bandit, Rock-Paper-Scissors and Tower of Hanoi: mechanics, texts, scores."""

from __future__ import annotations

import dataclasses
import random

import pytest

from langgraph_games.games import GameOverError, GameSession, make
from langgraph_games.games.smartplay.bandit import ACTIONS as BANDIT_ACTIONS
from langgraph_games.games.smartplay.hanoi import ACTIONS as HANOI_ACTIONS
from langgraph_games.games.smartplay.metrics import episode_metrics
from langgraph_games.games.smartplay.rock_paper_scissors import (
    ACTIONS as RPS_ACTIONS,
)
from langgraph_games.games.smartplay.rock_paper_scissors import (
    expected_scores,
    optimal_hand,
    round_score,
)
from langgraph_games.testing import check_game

# ----- Bandit ---------------------------------------------------------------------------


def test_bandit_arms_are_shuffled_per_seed_and_reproducible() -> None:
    game = make("bandit")
    orders = {game.initial_state(seed).probs for seed in range(40)}
    assert orders == {(0.8, 0.2), (0.2, 0.8)}
    assert game.initial_state(7) == game.initial_state(7)


def test_bandit_texts_rewards_and_optimal_count() -> None:
    session = GameSession("bandit", seed=3)
    game = session.game
    assert session.observe() == "A new round begins."
    good = game.optimal_arm(session.state)  # type: ignore[attr-defined]
    assert session.state.probs[good] == 0.8  # type: ignore[attr-defined]
    # Scripted: good, bad, good, then bad for the rest.
    script = [good, 1 - good, good] + [1 - good] * 47
    rewards = []
    for arm in script:
        (event,) = session.step(BANDIT_ACTIONS[arm])
        assert event["reward"] in (1, -1)
        assert session.observe() == (
            f"You pulled slot machine {arm + 1}, you received reward {event['reward']}."
        )
        rewards.append(event["reward"])
    assert session.done and len(session.actions) == 50
    metrics = episode_metrics(session)
    assert metrics["score"] == 2.0
    assert metrics["reward"] == float(sum(rewards))
    assert metrics["normalized_score"] == pytest.approx(2 / 45)
    assert metrics["completed"] is False
    with pytest.raises(GameOverError):
        session.step(BANDIT_ACTIONS[0])


def test_bandit_always_optimal_scores_fifty() -> None:
    for seed in range(5):
        session = GameSession("bandit", seed=seed)
        good = session.game.optimal_arm(session.state)  # type: ignore[attr-defined]
        for _ in range(50):
            session.step(BANDIT_ACTIONS[good])
        assert episode_metrics(session)["score"] == 50.0


def test_bandit_payout_rates_match_the_probabilities() -> None:
    paid = {0.8: [], 0.2: []}  # type: ignore[var-annotated]
    for seed in range(60):
        session = GameSession("bandit", seed=seed)
        for turn in range(50):
            arm = turn % 2
            p = session.state.probs[arm]  # type: ignore[attr-defined]
            (event,) = session.step(BANDIT_ACTIONS[arm])
            paid[p].append(event["reward"] == 1)
    assert sum(paid[0.8]) / len(paid[0.8]) == pytest.approx(0.8, abs=0.03)
    assert sum(paid[0.2]) / len(paid[0.2]) == pytest.approx(0.2, abs=0.03)


def test_bandit_manual_lists_the_actions_in_order() -> None:
    game = make("bandit")
    manual = game.manual(game.initial_state(0))  # type: ignore[attr-defined]
    assert manual.endswith("List of all actions:\n1. Pull slot machine 1.\n2. Pull slot machine 2.")
    assert "Two slot machines" in manual


# ----- Rock-Paper-Scissors ------------------------------------------------------------


def _released_expectation(probs: tuple[float, ...], scores: tuple[int, ...]) -> list[float]:
    """The released ``compute_optimal_action`` expectation, re-derived for comparison."""
    values = []
    for mine in range(3):
        value = 0.0
        for theirs in range(3):
            value += probs[theirs] * scores[theirs]
            if (mine, theirs) in ((0, 1), (1, 2), (2, 0)):
                value -= probs[theirs] * scores[theirs]
            elif mine != theirs:
                value += probs[theirs] * scores[mine]
        values.append(value)
    return values


def test_rps_round_scores_follow_the_rules() -> None:
    scores = (1, 2, 3)
    # rock beats scissors, paper beats rock, scissors beat paper
    assert round_score(0, 2, scores) == 1
    assert round_score(1, 0, scores) == 2
    assert round_score(2, 1, scores) == 3
    assert round_score(2, 0, scores) == -1  # rock (score 1) beat my scissors
    assert round_score(0, 1, scores) == -2
    assert round_score(1, 1, scores) == 0


def test_rps_optimal_hand_is_the_true_expected_score_argmax() -> None:
    rng = random.Random(5)
    for _ in range(300):
        raw = [rng.random() for _ in range(3)]
        probs = tuple(x / sum(raw) for x in raw)
        scores = tuple(rng.randint(1, 4) for _ in range(3))
        best = optimal_hand(probs, scores)
        values = expected_scores(probs, scores)
        assert values[best] == pytest.approx(max(values))
        # The released expectation is the true one plus a constant (sum of p * s), so away
        # from exact ties it picks the same hand (note S4).
        released = _released_expectation(probs, scores)
        offset = sum(p * s for p, s in zip(probs, scores, strict=True))
        assert released == pytest.approx([v + offset for v in values])
        if sorted(values)[2] - sorted(values)[1] > 1e-9:
            assert released.index(max(released)) == best


def test_rps_ties_break_to_the_first_hand() -> None:
    # rock and paper both expect 0.1 here; the released argmax depended on rounding.
    assert optimal_hand((0.5, 0.3, 0.2), (2, 1, 2)) == 0


@pytest.mark.parametrize("variant", ["basic", "different_score"])
def test_rps_pairs_are_shuffled_together(variant: str) -> None:
    game = make("rock_paper_scissors", variant=variant)
    released = {
        "basic": [(0.2, 1), (0.2, 1), (0.6, 1)],
        "different_score": [(0.3, 1), (0.3, 2), (0.4, 1)],
    }[variant]
    layouts = set()
    for seed in range(60):
        state = game.initial_state(seed)
        pairs = list(zip(state.probs, state.scores, strict=True))
        assert sorted(pairs) == released  # a permutation of the released (p, score) pairs
        layouts.add(tuple(pairs))
    assert len(layouts) == (3 if variant == "basic" else 6)  # every distinct layout occurs


def test_rps_manual_labels_each_hand_with_its_own_score() -> None:
    game = make("rock_paper_scissors", variant="different_score")
    for seed in range(12):
        state = game.initial_state(seed)
        manual = game.manual(state)  # type: ignore[attr-defined]
        rock, paper, scissors = state.scores
        assert f"winning with rock scores {rock}." in manual
        assert f"winning with paper scores {paper}." in manual
        assert f"winning with scissors scores {scissors}." in manual
        assert manual.endswith("List of all actions:\n1. Rock\n2. Paper\n3. Scissor")


def test_rps_texts_and_exact_scores_on_a_scripted_episode() -> None:
    session = GameSession("rock_paper_scissors", seed=11)
    state = session.state
    assert session.observe() == "New round begins."
    best = optimal_hand(state.probs, state.scores)  # type: ignore[attr-defined]
    script = [best] * 30 + [(best + 1) % 3] * 20
    total = 0
    for hand in script:
        (event,) = session.step(RPS_ACTIONS[hand])
        theirs = RPS_ACTIONS.index(event["opponent"])
        reward = round_score(hand, theirs, state.scores)  # type: ignore[attr-defined]
        total += reward
        result = {1: "won", -1: "lost", 0: "tied"}[(reward > 0) - (reward < 0)]
        assert event["reward"] == reward and event["result"] == result
        assert session.observe() == (
            f"You chose {RPS_ACTIONS[hand]}, and the opponent chose {event['opponent']}. "
            f"You {result} and received score {reward}.\nNew round begins."
        )
    assert session.done
    metrics = episode_metrics(session)
    assert metrics["score"] == 30.0
    assert metrics["reward"] == float(total)
    assert metrics["normalized_score"] == pytest.approx(30 / 43)
    assert metrics["column"] == "RPS"


def test_rps_opponent_follows_its_probabilities() -> None:
    counts = {0.2: 0, 0.6: 0}
    rounds = 0
    for seed in range(40):
        session = GameSession("rock_paper_scissors", seed=seed)
        probs = session.state.probs  # type: ignore[attr-defined]
        for _ in range(50):
            (event,) = session.step("Rock")
            counts[probs[RPS_ACTIONS.index(event["opponent"])]] += 1
            rounds += 1
    assert counts[0.6] / rounds == pytest.approx(0.6, abs=0.03)


def test_rps_different_score_variant_plays() -> None:
    session = GameSession("rock_paper_scissors", seed=2, variant="different_score")
    while not session.done:
        session.step("Paper")
    metrics = episode_metrics(session)
    assert metrics["column"] == "RPSDifferentScore"
    assert metrics["normalized_score"] is None  # no recorded human score
    check_game(make("rock_paper_scissors", variant="different_score"), seeds=range(3))


# ----- Tower of Hanoi -----------------------------------------------------------------


def solution(n: int, source: int = 0, target: int = 2, spare: int = 1) -> list[str]:
    """The recursive optimal solution, as action strings."""
    if n == 0:
        return []
    names = "ABC"
    move = f"Move the top disk of rod {names[source]} to the top of rod {names[target]}"
    return [*solution(n - 1, source, spare, target), move, *solution(n - 1, spare, target, source)]


def test_hanoi_start_text_and_invalid_move() -> None:
    session = GameSession("hanoi")
    assert session.observe() == (
        "Current configuration:\n"
        "- A: |bottom, [2, 1, 0], top|\n"
        "- B: |bottom, [], top|\n"
        "- C: |bottom, [], top|"
    )
    (event,) = session.step("Move the top disk of rod B to the top of rod A")
    assert event == {"type": "move", "from": "B", "to": "A", "valid": False, "reward": -1}
    assert session.observe() == (
        "You tried to move the top disk of rod b to the top of rod a. Current configuration:\n"
        "- A: |bottom, [2, 1, 0], top|\n"
        "- B: |bottom, [], top|\n"
        "- C: |bottom, [], top|"
    )
    assert session.returns == (-1.0,)


def test_hanoi_optimal_solution_completes_with_score_three() -> None:
    session = GameSession("hanoi")
    moves = solution(3)
    assert len(moves) == 7
    for move in moves:
        session.step(move)
    assert session.done and len(session.actions) == 7
    assert session.events[-1][-1] == {"type": "solved"}
    metrics = episode_metrics(session)
    assert metrics == {
        "game": "hanoi-v1",
        "column": "Hanoi",
        "score": 3.0,
        "normalized_score": 1.0,
        "completed": True,
        "reward": 100.0,
        "steps": 7,
        "done": True,
    }


def test_hanoi_score_counts_disks_on_the_last_rod_at_the_last_step() -> None:
    session = GameSession("hanoi")
    for move in [*solution(2), "Move the top disk of rod A to the top of rod B"]:
        session.step(move)
    # two disks reached C, then the largest went to B; wait out the 30 steps with
    # refused moves (onto a smaller disk).
    while not session.done:
        session.step("Move the top disk of rod B to the top of rod C")
    assert len(session.actions) == 30
    metrics = episode_metrics(session)
    assert metrics["score"] == 2.0 and metrics["completed"] is False
    assert metrics["reward"] == -(30 - 4)
    assert metrics["normalized_score"] == pytest.approx(2 / 3)


def test_hanoi_rule_against_larger_on_smaller() -> None:
    game = make("hanoi")
    state = dataclasses.replace(game.initial_state(0), rods=(1, 2, 0), turn=1, last_move=0)
    # A holds 2, B holds 0, C holds 1: B->C and B->A allowed, C->B refused, A->anything refused
    expected = {"AB": False, "AC": False, "BA": True, "BC": True, "CA": True, "CB": False}
    got = {}
    for action in HANOI_ACTIONS:
        _, events = game.apply(state, {0: action})
        got[events[0]["from"] + events[0]["to"]] = events[0]["valid"]
    assert got == expected


@pytest.mark.parametrize("disks", [1, 4])
def test_hanoi_other_sizes(disks: int) -> None:
    steps = 2**disks - 1
    session = GameSession("hanoi", disks=disks, steps=max(30, steps))
    assert f"- A: |bottom, {list(range(disks))[::-1]}, top|" in session.observe()
    for move in solution(disks):
        session.step(move)
    assert session.done and len(session.actions) == steps
    metrics = episode_metrics(session)
    assert metrics["score"] == disks and metrics["completed"] is True
    assert metrics["column"] == f"Hanoi{disks}Disk"
    check_game(make("hanoi", disks=disks), seeds=range(2))


def test_hanoi_manual_shows_start_goal_and_actions() -> None:
    game = make("hanoi")
    manual = game.manual(game.initial_state(0))  # type: ignore[attr-defined]
    assert "- A: |bottom, [2, 1, 0], top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|" in manual
    assert "- A: |bottom, [], top|\n- B: |bottom, [], top|\n- C: |bottom, [2, 1, 0], top|" in manual
    numbered = "\n".join(f"{i}. {a}" for i, a in enumerate(HANOI_ACTIONS, 1))
    assert manual.endswith("List of all actions:\n" + numbered)


# ----- shared SmartPlay behaviour ------------------------------------------------------


@pytest.mark.parametrize("game_id", ["bandit", "rock_paper_scissors", "hanoi", "messenger"])
def test_parse_and_fallback_follow_smartplay(game_id: str) -> None:
    game = make(game_id)
    state = game.initial_state(0)
    actions = game.action_list(state)  # type: ignore[attr-defined]
    assert set(actions) == set(game.legal_actions(state, 0))
    late, early = actions[-1], actions[1]
    text = f"I considered {early.upper()} but then {late}."
    assert game.parse_action(state, 0, text) == early
    assert game.parse_action(state, 0, "nothing useful") is None
    assert game.fallback_action(state, 0, random.Random(0)) == actions[0]


def test_state_json_round_trip_keeps_fixed_length_tuples() -> None:
    # BanditState.probs and RockPaperScissorsState.probs/scores are fixed-length tuples.
    for game_id in ("bandit", "rock_paper_scissors"):
        game = make(game_id)
        state = game.initial_state(4)
        assert game.state_from_json(game.state_to_json(state)) == state
