"""Cards and a complete poker hand evaluator for five to seven cards.

A card is an int ``rank * 4 + suit``: ranks 0-12 are 2, 3, ..., K, A and suits 0-3 are
clubs, diamonds, hearts, spades (OpenSpiel's ``universal_poker`` numbering, so test
hands can be dealt there unchanged).

:func:`evaluate` returns a strength: higher beats lower, equal ties. Its top bits hold the
category (0 high card ... 8 straight flush) and the rest the ranks that break ties, so
``strength >> 20`` is the category. :func:`hand_rank` turns a strength into GAMEBoT's
ranking (1 Royal Flush ... 10 High Card). Every category is recognised, the royal flush
and the ace-low straight (A-2-3-4-5, "the wheel") included; GAMEBoT's released
evaluator missed both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = [
    "CATEGORY_NAMES",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "card_code",
    "card_name",
    "evaluate",
    "hand_rank",
    "parse_card",
    "rank_of",
    "suit_of",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
ACE = 12

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_SHIFT = 20

CATEGORY_NAMES = {
    1: "Royal Flush",
    2: "Straight Flush",
    3: "Four of a Kind",
    4: "Full House",
    5: "Flush",
    6: "Straight",
    7: "Three of a Kind",
    8: "Two Pair",
    9: "One Pair",
    10: "High Card",
}
"""GAMEBoT's hand rankings (paper Appendix H.7), 1 the best."""


def rank_of(card: int) -> int:
    """0 (deuce) to 12 (ace)."""
    return card >> 2


def suit_of(card: int) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3


def card_code(card: int) -> str:
    """Two-character code such as ``"As"`` or ``"Td"``."""
    return RANKS[card >> 2] + SUITS[card & 3]


def card_name(card: int) -> str:
    """GAMEBoT's spelling, suit first: ``"Spades A"``, ``"Hearts 10"``."""
    return f"{SUIT_NAMES[card & 3]} {RANK_NAMES[card >> 2]}"


def parse_card(code: str) -> int:
    """The card of a code such as ``"As"``, ``"10h"`` or ``"td"``.

    Raises:
        ValueError: Not a card code.

    Example:
        >>> card_name(parse_card("Qh")), parse_card("2c"), parse_card("As")
        ('Hearts Q', 0, 51)
    """
    text = code.strip()
    rank_text, suit_text = text[:-1].upper(), text[-1:].lower()
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in SUITS or not suit_text:
        raise ValueError(
            f"not a card: {code!r} (expected a rank 2-9, T/10, J, Q, K, A and c/d/h/s)"
        )
    return RANKS.index(rank_text) * 4 + SUITS.index(suit_text)


def _straight_tops() -> tuple[int, ...]:
    """For every 13-bit rank mask, the top rank of its best straight, or -1."""
    windows = [(top, 0b11111 << (top - 4)) for top in range(ACE, 3, -1)]
    wheel = (1 << ACE) | 0b1111
    tops = []
    for mask in range(1 << 13):
        top = next((t for t, w in windows if mask & w == w), -1)
        if top < 0 and mask & wheel == wheel:
            top = 3  # A-2-3-4-5: the five is the top card
        tops.append(top)
    return tuple(tops)


_STRAIGHT_TOP = _straight_tops()


def _top_ranks(mask: int, count: int) -> list[int]:
    ranks: list[int] = []
    rank = ACE
    while len(ranks) < count and rank >= 0:
        if mask >> rank & 1:
            ranks.append(rank)
        rank -= 1
    return ranks


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = value << 4 | (ranks[i] if i < len(ranks) else 0)
    return value


def evaluate(cards: Iterable[int]) -> int:
    """Strength of the best five-card hand among five to seven cards (higher is better).

    Example:
        >>> wheel = evaluate(parse_card(c) for c in ("As", "2d", "3h", "4s", "5c", "Kd", "Kh"))
        >>> six_high = evaluate(parse_card(c) for c in ("6s", "2d", "3h", "4s", "5c", "Kd", "Kh"))
        >>> hand_rank(wheel), hand_rank(six_high), wheel < six_high
        (6, 6, True)
    """
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for card in cards:
        rank = card >> 2
        counts[rank] += 1
        suit_masks[card & 3] |= 1 << rank
    for suit_mask in suit_masks:
        if suit_mask.bit_count() >= 5:
            # With at most seven cards a flush excludes four of a kind and a full house.
            top = _STRAIGHT_TOP[suit_mask]
            if top >= 0:
                return _pack(STRAIGHT_FLUSH, (top,))
            return _pack(FLUSH, _top_ranks(suit_mask, 5))
    quads = trips = -1
    pairs: list[int] = []
    singles: list[int] = []
    rank_mask = 0
    for rank in range(ACE, -1, -1):
        n = counts[rank]
        if not n:
            continue
        rank_mask |= 1 << rank
        if n == 4:
            quads = rank
        elif n == 3:
            if trips < 0:
                trips = rank
            else:
                pairs.append(rank)  # a second three of a kind plays as the pair
        elif n == 2:
            pairs.append(rank)
        else:
            singles.append(rank)
    if quads >= 0:
        kicker = max([r for r in range(13) if counts[r] and r != quads])
        return _pack(QUADS, (quads, kicker))
    if trips >= 0 and pairs:
        return _pack(FULL_HOUSE, (trips, max(pairs)))
    top = _STRAIGHT_TOP[rank_mask]
    if top >= 0:
        return _pack(STRAIGHT, (top,))
    if trips >= 0:
        return _pack(TRIPS, (trips, *singles[:2]))
    if len(pairs) >= 2:
        kicker = max(pairs[2:] + singles[:1])
        return _pack(TWO_PAIR, (pairs[0], pairs[1], kicker))
    if pairs:
        return _pack(PAIR, (pairs[0], *singles[:3]))
    return _pack(HIGH_CARD, singles[:5])


def hand_rank(strength: int) -> int:
    """GAMEBoT's ranking of a strength: 1 Royal Flush, 2 Straight Flush, ... 10 High Card.

    Example:
        >>> royal = evaluate(parse_card(c) for c in ("As", "Ks", "Qs", "Js", "Ts"))
        >>> hand_rank(royal), CATEGORY_NAMES[hand_rank(royal)]
        (1, 'Royal Flush')
    """
    category = strength >> CATEGORY_SHIFT
    if category == STRAIGHT_FLUSH:
        top = strength >> (CATEGORY_SHIFT - 4) & 0xF
        return 1 if top == ACE else 2
    return 10 - category
