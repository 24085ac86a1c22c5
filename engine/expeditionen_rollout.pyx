# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The strong Expeditionen bot's rollout, compiled: both seats play the medium heuristic
(a play or discard as if a deck draw followed, then the best draw) to the round's end.

``engine/bots/expeditionen.py`` is the reference (``medium_play`` without pairs,
``medium_draw``, ``medium_round``) and says what every step means; this file follows it on
plain numbers, in the same order of floating-point operations, so both play the same
round card for card (``tests/engine/test_expeditionen_rollout.py``). A card is its suit's
index times 16 plus its worth (0 for a wager); the three wagers of a suit are
interchangeable, and the heuristic always takes the first of equals in hand order.
"""

from libc.math cimport INFINITY, erf, exp, sqrt

from engine.bots import expeditionen as reference
from engine.cards import SUITS, rank, suit
from engine.expeditionen import BONUS, BONUS_CARDS, EXPEDITION_COST, RANK_ORDER

cdef double IN_ORDER = reference.IN_ORDER
cdef double WAITING = reference.WAITING
cdef double TAKE_SHARE = reference.TAKE_SHARE
cdef int BONUS_FROM = reference.BONUS_FROM
cdef int ROLLOUT_TURNS = reference.ROLLOUT_TURNS
cdef int C_BONUS = BONUS
cdef int C_BONUS_CARDS = BONUS_CARDS
cdef int COST = EXPEDITION_COST

cdef enum:
    MAX_CARDS = 64
    WORTHS = 12  # worth 0 (a wager), 1 (an ace) to 10, and one to spare

CODE = {
    card: SUITS.index(suit(card)) * 16 + RANK_ORDER[rank(card)]
    for card in [r + s for s in SUITS for r in RANK_ORDER]
}


cdef struct Prospect:
    int laid, laid_count, laid_wagers, held, held_count, held_wagers
    double coming, coming_count, spread


cdef struct Laid:
    int top, total, count, wagers


cdef struct Round:
    int hands[2][16]
    int hand_size[2]
    Laid laid[2][4]
    int pile[MAX_CARDS]
    int pile_next, pile_end
    int discards[4][MAX_CARDS]
    int discard_size[4]
    int discarded_suit  # the suit discarded to this turn, or -1


cdef struct Unseen:
    # From the mover's side (the other hand and the draw pile): per suit, the sum, count
    # and sum of squares of the worths above each possible top.
    int total[4][WORTHS]
    int count[4][WORTHS]
    int squares[4][WORTHS]
    int size


cdef struct Outlook:
    int turns
    double chance, deck_draw
    int held[4][WORTHS]
    Prospect prospects[4]


cdef struct Rival:
    double chance


cdef inline int suit_of(int card):
    return card >> 4


cdef inline int worth_of(int card):
    return card & 15


cdef Prospect prospect(Laid* laid, int* held, Unseen* unseen, int s, double chance):
    cdef Prospect p
    cdef int top = laid.top, w
    p.laid = laid.total
    p.laid_count = laid.count
    p.laid_wagers = laid.wagers
    p.held = 0
    p.held_count = 0
    for w in range(top + 1, WORTHS):
        p.held += held[w] * w
        p.held_count += held[w]
    p.held_wagers = held[0] if top == 0 else 0
    p.coming = IN_ORDER * chance * unseen.total[s][top]
    p.coming_count = IN_ORDER * chance * unseen.count[s][top]
    p.spread = chance * (1 - chance) * unseen.squares[s][top]
    return p


cdef double above_nothing(double mean, double deviation):
    cdef double z, below
    if deviation <= 0:
        return mean if mean > 0.0 else 0.0
    z = mean / deviation
    below = 0.5 * (1 + erf(z / sqrt(2.0)))
    return mean * below + deviation * exp(-z * z / 2) / sqrt(2 * 3.141592653589793)


cdef double suit_value(Prospect* p, double room, bint opening):
    cdef double best = -INFINITY if p.laid_count else 0.0
    cdef double count, total, bonus, mean, share
    cdef int wagers, multiplier, pass_
    for pass_ in range(2 if p.held_wagers else 1):
        wagers = p.held_wagers if pass_ else 0
        count = p.laid_count + room * (wagers + p.held_count + p.coming_count)
        total = p.laid + room * (p.held + p.coming)
        share = count - BONUS_FROM
        if share < 0.0:
            share = 0.0
        share = share / (C_BONUS_CARDS - BONUS_FROM)
        if share > 1.0:
            share = 1.0
        bonus = C_BONUS * share
        multiplier = 1 + p.laid_wagers + wagers
        mean = (total - COST) * multiplier + bonus
        if opening and not p.laid_count:
            mean = above_nothing(mean, multiplier * sqrt(room * p.spread))
        if mean > best:
            best = mean
    return best


cdef double value(Outlook* o, Prospect* prospects):
    cdef int s, wanted = 0
    cdef double room = 1.0, total = 0.0
    for s in range(4):
        if prospects[s].laid_count or suit_value(&prospects[s], 1.0, False) > 0:
            wanted += prospects[s].held_count + prospects[s].held_wagers
    if wanted:
        room = o.turns / <double>wanted
        if room > 1.0:
            room = 1.0
    for s in range(4):
        total += suit_value(&prospects[s], room, True)
    return total - WAITING * (wanted if wanted < o.turns else o.turns)


cdef double changed_value(Outlook* o, int s, Prospect p):
    cdef Prospect prospects[4]
    cdef int t
    for t in range(4):
        prospects[t] = o.prospects[t]
    prospects[s] = p
    return value(o, prospects)


cdef void read_unseen(Round* r, int mover, Unseen* unseen):
    cdef int counts[4][WORTHS]
    cdef int s, w, i, card
    for s in range(4):
        for w in range(WORTHS):
            counts[s][w] = 0
    for i in range(r.hand_size[1 - mover]):
        card = r.hands[1 - mover][i]
        counts[suit_of(card)][worth_of(card)] += 1
    for i in range(r.pile_next, r.pile_end):
        card = r.pile[i]
        counts[suit_of(card)][worth_of(card)] += 1
    unseen.size = r.hand_size[1 - mover] + r.pile_end - r.pile_next
    for s in range(4):
        unseen.total[s][WORTHS - 1] = 0
        unseen.count[s][WORTHS - 1] = 0
        unseen.squares[s][WORTHS - 1] = 0
        for w in range(WORTHS - 2, -1, -1):
            unseen.total[s][w] = unseen.total[s][w + 1] + counts[s][w + 1] * (w + 1)
            unseen.count[s][w] = unseen.count[s][w + 1] + counts[s][w + 1]
            unseen.squares[s][w] = unseen.squares[s][w + 1] + counts[s][w + 1] * (w + 1) * (w + 1)


cdef void read_outlook(Round* r, int mover, Unseen* unseen, Outlook* o):
    cdef int pile = r.pile_end - r.pile_next, pool = unseen.size if unseen.size > 1 else 1
    cdef int draws, s, w, i
    cdef Prospect kept[4]
    o.turns = (pile - 1) // 2
    draws = o.turns - 1 if o.turns > 1 else 0
    for s in range(4):
        for w in range(WORTHS):
            o.held[s][w] = 0
    for i in range(r.hand_size[mover]):
        o.held[suit_of(r.hands[mover][i])][worth_of(r.hands[mover][i])] += 1
    o.chance = min_one((draws + 1) / <double>pool)
    for s in range(4):
        o.prospects[s] = prospect(&r.laid[mover][s], o.held[s], unseen, s, o.chance)
    for s in range(4):
        kept[s] = prospect(&r.laid[mover][s], o.held[s], unseen, s, min_one(draws / <double>pool))
    o.deck_draw = value(o, o.prospects) - value(o, kept)


cdef inline double min_one(double x):
    return x if x < 1.0 else 1.0


cdef double windfall(Round* r, int mover, Unseen* unseen, double chance, int card):
    cdef int held[WORTHS]
    cdef int s = suit_of(card), w
    cdef Prospect without, with_it
    cdef double gain
    for w in range(WORTHS):
        held[w] = 0
    without = prospect(&r.laid[1 - mover][s], held, unseen, s, chance)
    held[worth_of(card)] = 1
    with_it = prospect(&r.laid[1 - mover][s], held, unseen, s, chance)
    gain = suit_value(&with_it, 1.0, True) - suit_value(&without, 1.0, True)
    return TAKE_SHARE * (gain if gain > 0.0 else 0.0)


cdef double rival_chance(Round* r, Unseen* unseen):
    cdef int turns = (r.pile_end - r.pile_next) // 2
    cdef int draws = turns - 1 if turns > 1 else 0
    return min_one(draws / <double>(unseen.size if unseen.size > 1 else 1))


cdef inline bint fits(Laid* laid, int worth):
    if not laid.count:
        return True
    return laid.top == 0 if worth == 0 else worth > laid.top


cdef Laid laid_with(Laid laid, int worth):
    laid.total += worth
    laid.count += 1
    laid.wagers += worth == 0
    if worth:
        laid.top = worth
    return laid


cdef int medium_play(Round* r, int mover, bint* discard):
    """The index in hand of the card to play (or discard, then ``discard`` is set)."""
    cdef Unseen unseen
    cdef Outlook o
    cdef double chance, best = -INFINITY, v
    cdef int i, s, w, kind, chosen = 0
    cdef int rest[WORTHS]
    cdef Laid laid
    read_unseen(r, mover, &unseen)
    read_outlook(r, mover, &unseen, &o)
    chance = rival_chance(r, &unseen)
    for i in range(r.hand_size[mover]):
        s = suit_of(r.hands[mover][i])
        w = worth_of(r.hands[mover][i])
        for kind in range(WORTHS):  # the suit's cards held, less this one
            rest[kind] = o.held[s][kind]
        rest[w] -= 1
        for kind in range(2):
            if kind == 0:
                if not fits(&r.laid[mover][s], w):
                    continue
                laid = laid_with(r.laid[mover][s], w)
                v = changed_value(&o, s, prospect(&laid, rest, &unseen, s, o.chance))
            else:
                v = changed_value(&o, s, prospect(&r.laid[mover][s], rest, &unseen, s, o.chance))
                v -= windfall(r, mover, &unseen, chance, r.hands[mover][i])
            if v > best:
                best = v
                chosen = i
                discard[0] = kind == 1
    return chosen


cdef int medium_draw(Round* r, int mover):
    """The suit whose discard pile to draw from, or -1 for the deck."""
    cdef Unseen unseen
    cdef Outlook o
    cdef double chance, best, v
    cdef int t, w, top, chosen = -1
    cdef int held[WORTHS]
    read_unseen(r, mover, &unseen)
    read_outlook(r, mover, &unseen, &o)
    chance = rival_chance(r, &unseen)
    best = value(&o, o.prospects)
    for t in range(4):
        if not r.discard_size[t] or t == r.discarded_suit:
            continue
        top = r.discards[t][r.discard_size[t] - 1]
        for w in range(WORTHS):
            held[w] = o.held[t][w]
        held[worth_of(top)] += 1
        v = changed_value(&o, t, prospect(&r.laid[mover][t], held, &unseen, t, o.chance))
        v = v - o.deck_draw + windfall(r, mover, &unseen, chance, top)
        if v > best:
            best, chosen = v, t
    return chosen


cdef int score(Laid* laid):
    if not laid.count:
        return 0
    return (laid.total - COST) * (1 + laid.wagers) + (C_BONUS if laid.count >= C_BONUS_CARDS else 0)


cdef void lay(Round* r, int mover, int card):
    cdef int s = suit_of(card)
    r.laid[mover][s] = laid_with(r.laid[mover][s], worth_of(card))


def medium_round(state):
    """Both seats' points at the end of the state's round, both playing medium from here:
    ``engine.bots.expeditionen.medium_round``, compiled."""
    cdef Round r
    cdef int seat, s, i, card, mover, chosen, t, turn = 0
    cdef bint discard = False, drawing
    cdef int points[2]
    for seat in range(2):
        r.hand_size[seat] = len(state.hands[seat])
        for i, code in enumerate(state.hands[seat]):
            r.hands[seat][i] = CODE[code]
        for s in range(4):
            r.laid[seat][s].top = r.laid[seat][s].total = 0
            r.laid[seat][s].count = r.laid[seat][s].wagers = 0
            for code in state.expeditions[seat][SUITS[s]]:
                lay(&r, seat, CODE[code])
    for s in range(4):
        pile = state.discards[SUITS[s]]
        r.discard_size[s] = len(pile)
        for i, code in enumerate(pile):
            r.discards[s][i] = CODE[code]
    r.pile_next, r.pile_end = 0, len(state.draw_pile)
    for i, code in enumerate(state.draw_pile):
        r.pile[i] = CODE[code]
    r.discarded_suit = SUITS.index(suit(state.discarded)) if state.discarded else -1
    mover = state.to_move
    drawing = state.phase == "draw"
    while True:
        if not drawing:
            chosen = medium_play(&r, mover, &discard)
            card = r.hands[mover][chosen]
            for i in range(chosen, r.hand_size[mover] - 1):
                r.hands[mover][i] = r.hands[mover][i + 1]
            r.hand_size[mover] -= 1
            if discard:
                s = suit_of(card)
                r.discards[s][r.discard_size[s]] = card
                r.discard_size[s] += 1
                r.discarded_suit = s
            else:
                lay(&r, mover, card)
                r.discarded_suit = -1
        t = medium_draw(&r, mover) if turn < ROLLOUT_TURNS else -1
        turn += 1
        if t < 0:
            card = r.pile[r.pile_next]
            r.pile_next += 1
        else:
            r.discard_size[t] -= 1
            card = r.discards[t][r.discard_size[t]]
        r.hands[mover][r.hand_size[mover]] = card
        r.hand_size[mover] += 1
        r.discarded_suit = -1
        if r.pile_next == r.pile_end:
            break
        mover, drawing = 1 - mover, False
    for seat in range(2):
        points[seat] = 0
        for s in range(4):
            points[seat] += score(&r.laid[seat][s])
    return points[0], points[1]
