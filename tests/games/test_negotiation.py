"""Negotiation v2: the deal, value arithmetic, chance ending, outcomes, parsing, bad input."""

from __future__ import annotations

import random

import pytest

from langgraph_games.games import GameSession, IllegalActionError, make
from langgraph_games.games.negotiation import Negotiation, NegotiationState
from langgraph_games.games.negotiation.rules import deal, share_value, splits


def state_of(
    pool: tuple[int, int, int], values: tuple[tuple[int, ...], ...], *proposals: tuple[int, ...]
) -> NegotiationState:
    return NegotiationState(
        seed=0,
        turn=len(proposals),
        pool=pool,
        values=(tuple(values[0]), tuple(values[1])),  # type: ignore[arg-type]
        proposals=tuple(proposals),  # type: ignore[arg-type]
        outcome="open",
    )


def test_deals_respect_the_rules() -> None:
    sizes = set()
    for seed in range(500):
        pool, values = deal(seed)
        assert 8 <= sum(pool) <= 12 and min(pool) >= 1
        for v in values:
            assert min(v) >= 0 and share_value(v, pool) == 30
        assert all(values[0][t] or values[1][t] for t in range(3))
        sizes.add(sum(pool))
    assert sizes == {8, 9, 10, 11, 12}


def test_value_arithmetic() -> None:
    # The paper's example: Player 2 with values [2, 5, 0] gets (2, 1, 1): 2*2 + 5*1 + 0*1 = 9.
    assert share_value((2, 5, 0), (2, 1, 1)) == 9
    # Our prompt's example: Player 1 with values [3, 2, 4] gets (1, 2, 3): 3 + 4 + 12 = 19.
    assert share_value((3, 2, 4), (1, 2, 3)) == 19
    game = Negotiation()
    state = state_of((4, 3, 3), ((3, 2, 4), (2, 6, 2)), (1, 2, 3, 3, 1, 0))
    assert game.ground_truth(state, 1) == {1: 2 * 3 + 6 * 1 + 2 * 0}
    assert game.action_ground_truth(state, 1, "P1: (0,3,3), P2: (4,0,0)") == {2: 8}
    assert game.action_ground_truth(state, 1, "Agree") == {}
    first = state_of((4, 3, 3), ((3, 2, 4), (2, 6, 2)))
    assert game.ground_truth(first, 0) == {}  # nothing to evaluate in round 1
    assert game.action_ground_truth(first, 0, "P1: (4,3,3), P2: (0,0,0)") == {2: 30}


def test_every_split_is_legal_and_counted() -> None:
    game = Negotiation()
    state = game.initial_state(0)
    legal = game.legal_actions(state, state.to_move)
    pool = state.pool
    assert len(legal) == (pool[0] + 1) * (pool[1] + 1) * (pool[2] + 1) == len(splits(pool))
    assert "Agree" not in legal  # nothing to agree to in round 1 (reference note G10)
    later = game.apply(state, {0: legal[0]})[0]
    assert "Agree" in game.legal_actions(later, 1)


def test_agreement_pays_the_latest_proposal() -> None:
    game = Negotiation()
    session = GameSession(game, seed=0)  # pool [1, 7, 2]; P1 values [24, 0, 3], P2 [6, 2, 5]
    assert session.state.pool == (1, 7, 2)
    session.step("P1: (1,0,1), P2: (0,7,1)")
    session.step("P1: (1,2,0), P2: (0,5,2)")
    session.step("Agree")
    assert session.done and session.returns == (24.0, 20.0)
    assert [r / game.return_scale for r in session.returns] == [0.8, 20 / 30]


def test_game_may_end_only_after_round_8() -> None:
    game = Negotiation()
    ended_at = []
    for seed in range(300):
        session = GameSession(game, seed=seed)
        proposal = game.legal_actions(session.state, 0)[0]
        while not session.done:
            session.step(proposal)
        assert session.returns == (0.0, 0.0)
        ended_at.append(len(session.state.proposals))
    assert min(ended_at) == 8  # round 9 is the first that may not happen
    share_at_8 = ended_at.count(8) / len(ended_at)
    assert 0.12 < share_at_8 < 0.28  # 20% before each round after round 8
    assert max(ended_at) > 15


def test_chance_settings_and_cap() -> None:
    never = make("negotiation", end_chance=0.0, max_rounds=12)
    session = GameSession(never, seed=1)
    proposal = never.legal_actions(session.state, 0)[0]
    while not session.done:
        session.step(proposal)
    assert len(session.state.proposals) == 12 and session.events[-1][-1]["type"] == "no_deal"


def test_opening_agree_option() -> None:
    reference = make("negotiation", opening_agree="reference")
    session = GameSession(reference, seed=0)
    session.step("Agree")
    assert session.returns == (0.0, 15.0)  # GAMEBoT's engine paid 0/15
    with pytest.raises(IllegalActionError, match="no proposal to agree to yet"):
        GameSession("negotiation", seed=0).step("Agree")


def test_malformed_and_invalid_proposals_are_refused_with_reasons() -> None:
    game = Negotiation()
    state = game.initial_state(0)  # pool [1, 7, 2]
    with pytest.raises(
        IllegalActionError, match=r"add up to \[1, 8, 2\] but the pool is \[1, 7, 2\]"
    ):
        game.apply(state, {0: "P1: (1,4,1), P2: (0,4,1)"})
    with pytest.raises(IllegalActionError, match="is not a proposal: write 'Agree' or a division"):
        game.apply(state, {0: "give me everything"})
    with pytest.raises(IllegalActionError, match="write the proposal exactly as 'P1: \\(1,0,1\\)"):
        game.apply(state, {0: "[P1: (1, 0, 1), P2: (0, 7, 1)]"})
    with pytest.raises(IllegalActionError, match="not this player's turn"):
        game.apply(state, {1: "P1: (1,0,1), P2: (0,7,1)"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5. **Proposal**\nProposal: [P1: (1,0,1), P2: (0,7,1)]", "P1: (1,0,1), P2: (0,7,1)"),
        ("Proposal: [P1: (1, 2, 0), P2: (0, 5, 2)]", "P1: (1,2,0), P2: (0,5,2)"),
        ("Proposal: [Agree]", "Agree"),
        ("I do not agree. Proposal: [P1: (0,0,2), P2: (1,7,0)]", "P1: (0,0,2), P2: (1,7,0)"),
        ("Proposal: [P1: (1,3,1), P2: (1,4,1)]", None),  # does not divide the pool
        ("Let us think. Player1: (1,1,1) Player2: (0,6,1)", "P1: (1,1,1), P2: (0,6,1)"),
        ("nothing useful", None),
    ],
)
def test_parse_action(text: str, expected: str | None) -> None:
    game = Negotiation()
    session = GameSession(game, seed=0, actions=["P1: (1,7,2), P2: (0,0,0)"])
    assert game.parse_action(session.state, 1, text) == expected


def test_fallback_agrees_when_it_can() -> None:
    game = Negotiation()
    rng = random.Random(0)
    first = game.initial_state(0)
    assert game.fallback_action(first, 0, rng) in game.legal_actions(first, 0)
    later = game.apply(first, {0: "P1: (1,7,2), P2: (0,0,0)"})[0]
    assert game.fallback_action(later, 1, rng) == "Agree"


def test_observation_shows_only_own_values() -> None:
    game = Negotiation()
    session = GameSession(game, seed=0, actions=["P1: (1,0,1), P2: (0,7,1)"])
    text = game.observation(session.state, 1)
    assert "Pool:    [1, 7, 2]" in text and "P2 values: [6, 2, 5]" in text
    assert "P1 values" not in text and "24" not in text
    assert "Round 1 Player1 proposes: P1 [1, 0, 1], P2 [0, 7, 1]" in text
    assert "Round 2: your turn; agree to Player1's latest proposal" in text
