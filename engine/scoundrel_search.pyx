# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The search of ``engine.scoundrel_solver.Solver``, compiled: the same tables in the same
order, the same bounds and answers, some 20 to 40 times faster.

``scoundrel_solver.py`` is the reference and says what every step means; this file
follows it function by function on C++ data: a table is a ``Node`` (rows of cards are
strings of card indices), the memo maps are keyed by a table's bytes, a line is a string
of takes (card * 2 + with the weapon, or ``AVOID``), and an option's turn ending (``Pause``
there) is a flag that unwinds the search. ``tests/engine/test_scoundrel_solver.py`` keeps
the two equal: the same score and the same count of tables on whole deals.
"""

from cython.operator cimport dereference as deref
from libc.stdint cimport uint64_t
from libcpp.string cimport string
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

from engine import scoundrel_solver as reference
from engine.scoundrel import MAX_HEALTH, ROOM_SIZE, TAKES_PER_ROOM
from engine.scoundrel_solver import (
    ANY,
    AVOID_DOUBT,
    AVOIDED,
    INDEX,
    KIND,
    MAX_MONSTER,
    MONSTER,
    NO_LINE,
    POINTS,
    POTION,
    TWIN,
    WEAPON,
    Lines,
    OutOfBudget,
)


cdef extern from *:
    int clz "__builtin_clzll"(unsigned long long)
    int ctz "__builtin_ctzll"(unsigned long long)


cdef int C_ANY = ANY
cdef int C_AVOID_DOUBT = AVOID_DOUBT
cdef int C_MAX_MONSTER = MAX_MONSTER
cdef int C_NO_LINE = NO_LINE
cdef int C_MAX_HEALTH = MAX_HEALTH
cdef int C_ROOM_SIZE = ROOM_SIZE
cdef int C_TAKES = TAKES_PER_ROOM
cdef int C_MONSTER = MONSTER
cdef int C_WEAPON = WEAPON
cdef int C_POTION = POTION
cdef char AVOID = 127  # the take of an avoid in a line
cdef int kind_of[64]
cdef int points_of[64]
cdef int twin_of[64]
for _card in range(len(KIND)):
    kind_of[_card] = KIND[_card]
    points_of[_card] = POINTS[_card]
    twin_of[_card] = TWIN[_card]

cdef enum:
    RUNNING = 0
    PAUSED = 1
    OVER_BUDGET = 2


cdef cppclass Node:
    int depth, health, weapon, limit, taken
    bint avoided, used, last
    string under, room
    uint64_t left


cdef cppclass Option:
    int hope, final_first, end  # the rating: ceiling, a final score first, end health
    string line
    bint final
    int score  # of a final option, or the score a found line reaches
    Node after


cdef cppclass Bound:
    int health, weapon, limit, bound


cdef cppclass Way:
    int health, weapon, limit
    string line


cdef cppclass End:
    string kept
    vector[Way] ways


cdef cppclass Walked:
    vector[End] ends
    int death_score, win_score
    string death_line, win_line


cdef inline int card_at(const string& row, size_t index) noexcept:
    return <unsigned char>row[index]


cdef inline uint64_t mask(const string& cards) noexcept:
    cdef uint64_t bits = 0
    cdef size_t i
    for i in range(cards.size()):
        bits |= (<uint64_t>1) << card_at(cards, i)
    return bits


cdef inline int bit_length(uint64_t bits) noexcept:
    return 0 if bits == 0 else 64 - clz(bits)


cdef inline int ceiling_of(int end, int best_potion) noexcept:
    return C_MAX_HEALTH + best_potion if end >= C_MAX_HEALTH else end


cdef inline void worth(int weapon, int limit, uint64_t values, int* out_weapon,
                       int* out_limit) noexcept:
    cdef int reach = bit_length(values & ((<uint64_t>2 << min(limit, C_MAX_MONSTER)) - 1)) - 1
    if not weapon or reach < 0:
        out_weapon[0] = 0
        out_limit[0] = 0
    else:
        out_weapon[0] = min(weapon, reach)
        out_limit[0] = reach


cdef uint64_t monster_values(uint64_t left) noexcept:
    cdef uint64_t values = 0
    cdef int card
    while left:
        card = ctz(left)
        left &= left - 1
        if kind_of[card] == C_MONSTER:
            values |= (<uint64_t>1) << points_of[card]
    return values


cdef int wasted(int* potions, int count, bint used) noexcept:
    """Potions (in rising order) taken in one room: what they leave unhealed."""
    cdef int total = 0, i
    for i in range(count):
        total += potions[i]
    if count and not used:
        total -= potions[count - 1]
    return total


cdef int room_cost(const string& room, int weapon, int limit, int best_weapon, bint used,
                   bint last) noexcept:
    cdef int at_hand = 0, extra_sum = 0, extra_max = 0, monsters = 0, count = 0
    cdef int potions[8]
    cdef int card, points, held, extra, i, j, known
    cdef size_t k
    for k in range(room.size()):
        card = card_at(room, k)
        if kind_of[card] == C_WEAPON and points_of[card] > at_hand:
            at_hand = points_of[card]
    for k in range(room.size()):
        card = card_at(room, k)
        points = points_of[card]
        if kind_of[card] == C_MONSTER:
            held = weapon if points <= limit else 0
            extra = max(0, points - max(at_hand, held)) - max(0, points - max(best_weapon, held))
            extra_sum += extra
            extra_max = extra if monsters == 0 or extra > extra_max else extra_max
            monsters += 1
        elif kind_of[card] == C_POTION:
            i = count
            while i > 0 and potions[i - 1] > points:
                potions[i] = potions[i - 1]
                i -= 1
            potions[i] = points
            count += 1
    known = extra_sum + wasted(potions, count, used)
    if not last and monsters:
        known = min(known, extra_sum - extra_max + wasted(potions, count, used))
    if not last and count:
        known = min(known, extra_sum + wasted(potions, count - 1, used))
    return known


cdef class Search:
    """``Solver``'s search (see ``engine.scoundrel_solver``), its tables in C++."""

    cdef public bytes deck
    cdef public list below
    cdef public long tables
    cdef bint strict
    cdef long budget  # -1: none
    cdef long pause_at
    cdef long first_turn, avoid_turn
    cdef int interrupt
    cdef string deck_row
    cdef vector[int] monsters_below
    cdef unordered_map[string, Option] lines
    cdef unordered_map[string, vector[Bound]] bounds
    cdef unordered_map[string, Walked] walks

    def __init__(self, dungeon, strict_weapons=False, budget=None):
        self.strict = strict_weapons
        self.deck = bytes(INDEX[card] for card in dungeon)
        self.deck_row = self.deck
        self.budget = -1 if budget is None else budget
        self.tables = 0
        self.pause_at = 1 << 62
        self.first_turn, self.avoid_turn = reference.FIRST_TURN, reference.AVOID_TURN
        self.interrupt = RUNNING
        self.below = [0] * (len(self.deck) + 1)
        self.monsters_below.resize(len(self.deck) + 1, 0)
        for depth in range(len(self.deck) - 1, -1, -1):
            card = self.deck[depth]
            self.below[depth] = self.below[depth + 1] | 1 << card
            self.monsters_below[depth] = self.monsters_below[depth + 1] + (
                POINTS[card] if KIND[card] == MONSTER else 0)

    # Python's side: tables as the reference's tuples

    def search(self, node, int target):
        cdef Node table = to_node(node)
        cdef int score = self.find(table, target)
        if self.interrupt == OVER_BUDGET:
            raise OutOfBudget
        return score

    def ceiling(self, node):
        cdef Node table = to_node(node)
        return self.ceiling_at(table)

    def step(self, node):
        """The takes of the line found from a table and the table or score they lead to."""
        cdef string key = node_key(to_node(node))
        found = self.lines.find(key)
        if found == self.lines.end():
            return None
        cdef Option* option = &deref(found).second
        after = option.score if option.final else from_node(option.after)
        return takes_of(option.line), after

    # The search

    cdef int find(self, Node& node, int target) noexcept:
        cdef string key = node_key(node)
        found = self.lines.find(key)
        if found != self.lines.end() and deref(found).second.score >= target:
            return deref(found).second.score
        cdef string table = table_key(node)
        bounds = self.bounds.find(table)
        cdef Bound* bound
        cdef size_t i
        if bounds != self.bounds.end():
            for i in range(deref(bounds).second.size()):
                bound = &deref(bounds).second[i]
                if (bound.bound < target and bound.health >= node.health
                        and bound.weapon >= node.weapon and bound.limit >= node.limit):
                    return bound.bound
        self.tables += 1
        if self.budget >= 0 and self.tables > self.budget:
            self.interrupt = OVER_BUDGET
            return 0
        if self.tables > self.pause_at:
            self.interrupt = PAUSED
            return 0
        cdef int best = C_NO_LINE
        cdef vector[Option] options
        cdef vector[size_t] ranks
        options.reserve(16)
        self.ranked(node, options, ranks)
        cdef size_t hopeful = ranks.size()
        for i in range(ranks.size()):
            if options[ranks[i]].hope < target:
                best = max(best, options[ranks[i]].hope)
                hopeful = i
                break
        cdef size_t avoid = 0
        for i in range(hopeful):
            if options[ranks[i]].line[0] == AVOID:
                avoid = i
                break
        cdef vector[size_t] order
        cdef vector[long] turns
        if avoid:
            order.push_back(0)
            turns.push_back(self.first_turn)
            order.push_back(avoid)
            turns.push_back(self.avoid_turn)
        for i in range(hopeful):
            order.push_back(i)
            turns.push_back(-1)
        cdef vector[char] done
        done.resize(hopeful, 0)
        cdef int score
        cdef bint answered
        cdef size_t index
        for i in range(order.size()):
            index = order[i]
            if done[index]:
                continue
            score = self.option(options[ranks[index]], target, turns[i], &answered)
            if self.interrupt != RUNNING:
                return 0
            if not answered:
                continue
            if score >= target:
                options[ranks[index]].score = score
                self.lines[key] = options[ranks[index]]
                return score
            best = max(best, score)
            done[index] = 1
        cdef Bound learned
        learned.health, learned.weapon, learned.limit, learned.bound = (
            node.health, node.weapon, node.limit, best)
        self.bounds[table].push_back(learned)
        return best

    cdef int option(self, Option& option, int target, long turn, bint* answered) noexcept:
        answered[0] = True
        if option.final:
            return option.score
        if turn < 0:
            return self.find(option.after, target)
        cdef long outer = self.pause_at
        self.pause_at = min(outer, self.tables + turn)
        cdef int score = self.find(option.after, target)
        if self.interrupt == PAUSED and self.pause_at != outer:
            self.interrupt = RUNNING  # this option's turn is over; it goes on later
            answered[0] = False
        self.pause_at = outer
        return score

    cdef void ranked(self, Node& node, vector[Option]& options,
                     vector[size_t]& ranks) noexcept:
        """The options, and their order in ``ranks``: most hopeful first."""
        self.choices(node, options)
        cdef int strength, best_potion, best_weapon, end
        cdef size_t i, j
        cdef Option* option
        for i in range(options.size()):
            option = &options[i]
            if option.final:
                option.hope, option.final_first, option.end = option.score, 1, 0
            else:
                self.strength(option.after.left, option.after.weapon, option.after.limit,
                              &strength, &best_potion, &best_weapon)
                end = option.after.health + strength - self.forced(option.after, best_weapon)
                option.hope = ceiling_of(end, best_potion)
                option.final_first = 0
                option.end = end - (C_AVOID_DOUBT if option.line[0] == AVOID else 0)
        ranks.resize(options.size())
        for i in range(options.size()):  # equals keep their order
            j = i
            while j > 0 and rated_below(options[ranks[j - 1]], options[i]):
                ranks[j] = ranks[j - 1]
                j -= 1
            ranks[j] = i

    cdef void choices(self, Node& node, vector[Option]& found) noexcept:
        cdef Option option
        cdef string dealt, rest
        cdef int deeper
        if node.taken == 0 and not node.avoided and not node.last:
            self.deal(node.depth, node.under + node.room, C_ROOM_SIZE, &dealt, &deeper, &rest)
            option.line = string(1, AVOID)
            option.final = False
            option.after = node
            option.after.depth, option.after.under, option.after.room = deeper, rest, dealt
            option.after.avoided, option.after.taken = True, 0
            option.after.used, option.after.last = False, False
            found.push_back(option)
        cdef Walked* walked = self.walk(node)
        option.final = True
        if walked.death_score > C_NO_LINE:
            option.line = walked.death_line
            option.score = walked.death_score - self.monsters_left(node.depth, node.under)
            found.push_back(option)
        if walked.win_score > C_NO_LINE:
            option.line = walked.win_line
            option.score = walked.win_score
            found.push_back(option)
        option.final = False
        cdef int waiting = <int>self.deck_row.size() - node.depth + <int>node.under.size()
        cdef uint64_t beyond_room = node.left & ~mask(node.room)
        cdef uint64_t after_left, values
        cdef int need, weapon, limit
        cdef size_t e, w
        cdef End* end
        cdef Way* way
        for e in range(walked.ends.size()):
            end = &walked.ends[e]
            need = C_ROOM_SIZE - <int>end.kept.size()
            self.deal(node.depth, node.under, need, &dealt, &deeper, &rest)
            after_left = beyond_room | mask(end.kept)
            values = monster_values(after_left)
            for w in range(end.ways.size()):
                way = &end.ways[w]
                worth(way.weapon, way.limit, values, &weapon, &limit)
                option.line = way.line
                option.after.depth, option.after.under = deeper, rest
                option.after.room = end.kept + dealt
                option.after.health, option.after.weapon, option.after.limit = (
                    way.health, weapon, limit)
                option.after.avoided, option.after.taken, option.after.used = False, 0, False
                option.after.last = waiting < need
                option.after.left = after_left
                found.push_back(option)

    cdef void deal(self, int depth, const string& under, int count, string* dealt, int* deeper,
                   string* rest) noexcept:
        """The next ``count`` cards (fewer if there are not so many), and what remains."""
        dealt[0] = self.deck_row.substr(min(<size_t>depth, self.deck_row.size()), count)
        deeper[0] = depth + <int>dealt.size()
        cdef size_t missing
        if <int>dealt.size() < count:
            missing = min(<size_t>(count - <int>dealt.size()), under.size())
            dealt[0] = dealt[0] + under.substr(0, missing)
            rest[0] = under.substr(missing)
        else:
            rest[0] = under

    cdef int monsters_left(self, int depth, const string& under) noexcept:
        cdef int total = self.monsters_below[depth]
        cdef size_t i
        for i in range(under.size()):
            if kind_of[card_at(under, i)] == C_MONSTER:
                total += points_of[card_at(under, i)]
        return total

    cdef int ceiling_at(self, Node& node) noexcept:
        cdef int strength, best_potion, best_weapon
        self.strength(node.left, node.weapon, node.limit, &strength, &best_potion, &best_weapon)
        return ceiling_of(node.health + strength - self.forced(node, best_weapon), best_potion)

    cdef int forced(self, Node& node, int best_weapon) noexcept:
        cdef int cost = room_cost(node.room, node.weapon, node.limit, best_weapon, node.used,
                                  node.last)
        cdef string dealt, rest
        cdef int deeper
        if cost and node.taken == 0 and not node.avoided and not node.last:
            self.deal(node.depth, node.under + node.room, C_ROOM_SIZE, &dealt, &deeper, &rest)
            cost = min(cost, room_cost(dealt, node.weapon, node.limit, best_weapon, False,
                                       False))
        return cost

    cdef void strength(self, uint64_t left, int weapon, int limit, int* strength,
                       int* best_potion, int* best_weapon) noexcept:
        cdef int potions = 0, best = 0, sharpest = 0, cost = 0, card, points, met
        cdef uint64_t bits = left
        while bits:
            card = ctz(bits)
            bits &= bits - 1
            points = points_of[card]
            if kind_of[card] == C_WEAPON:
                sharpest = max(sharpest, points)
            elif kind_of[card] == C_POTION:
                potions += points
                best = max(best, points)
        bits = left
        while bits:
            card = ctz(bits)
            bits &= bits - 1
            if kind_of[card] == C_MONSTER:
                points = points_of[card]
                met = weapon if weapon > sharpest and points <= limit else sharpest
                if points > met:
                    cost += points - met
        strength[0], best_potion[0], best_weapon[0] = potions - cost, best, sharpest

    # Every way through a room

    cdef Walked* walk(self, Node& node) noexcept:
        cdef string key = node.room
        sort_row(key)
        key.push_back(<char>node.health)
        key.push_back(<char>node.weapon)
        key.push_back(<char>node.limit)
        key.push_back(<char>node.taken)
        key.push_back(<char>node.used)
        key.push_back(<char>node.last)
        found = self.walks.find(key)
        if found != self.walks.end():
            return &deref(found).second
        cdef Walked* walked = &self.walks[key]
        walked.death_score = C_NO_LINE
        walked.win_score = C_NO_LINE
        self.through(walked, node.last, node.room, node.health, node.weapon, node.limit,
                     node.taken, node.used, string(), -1)
        return walked

    cdef void through(self, Walked* walked, bint last, const string& room, int health,
                      int weapon, int limit, int taken, bint used, const string& line,
                      int card) noexcept:
        cdef int score, bonus
        cdef size_t i, index
        cdef bint twin
        if health <= 0:
            score = health
            for i in range(room.size()):
                if kind_of[card_at(room, i)] == C_MONSTER:
                    score -= points_of[card_at(room, i)]
            if score > walked.death_score:
                walked.death_score, walked.death_line = score, line
        elif last and room.empty():
            bonus = (points_of[card]
                     if health == C_MAX_HEALTH and kind_of[card] == C_POTION else 0)
            if health + bonus > walked.win_score:
                walked.win_score, walked.win_line = health + bonus, line
        elif not last and taken == C_TAKES:
            keep_way(walked, room, health, weapon, limit, line)
        else:
            for index in range(room.size()):
                card = card_at(room, index)
                twin = False
                for i in range(index):
                    if card_at(room, i) == twin_of[card]:
                        twin = True  # its twin taken first plays the same
                if not twin:
                    self.take(walked, last, room.substr(0, index) + room.substr(index + 1),
                              card, health, weapon, limit, taken + 1, used, line)

    cdef void take(self, Walked* walked, bint last, const string& rest, int card, int health,
                   int weapon, int limit, int taken, bint used, const string& line) noexcept:
        cdef int points = points_of[card], kind = kind_of[card], slain
        if kind == C_WEAPON:
            self.through(walked, last, rest, health, points, C_ANY, taken, used,
                         line + string(1, <char>(card * 2)), card)
        elif kind == C_POTION:
            self.through(walked, last, rest,
                         health if used else min(C_MAX_HEALTH, health + points),
                         weapon, limit, taken, True, line + string(1, <char>(card * 2)), card)
        else:
            if weapon and points <= limit:
                slain = points - 1 if self.strict else points
                self.through(walked, last, rest, health - max(0, points - weapon), weapon,
                             slain, taken, used, line + string(1, <char>(card * 2 + 1)), card)
            self.through(walked, last, rest, health - points, weapon, limit, taken, used,
                         line + string(1, <char>(card * 2)), card)


cdef void keep_way(Walked* walked, const string& kept, int health, int weapon, int limit,
                   const string& line) noexcept:
    """A way to end the room, unless another with the same card kept beats it."""
    cdef End* end = NULL
    cdef size_t i
    for i in range(walked.ends.size()):
        if walked.ends[i].kept == kept:
            end = &walked.ends[i]
            break
    cdef End fresh
    if end == NULL:
        fresh.kept = kept
        walked.ends.push_back(fresh)
        end = &walked.ends.back()
    for i in range(end.ways.size()):
        if (end.ways[i].health >= health and end.ways[i].weapon >= weapon
                and end.ways[i].limit >= limit):
            return
    i = 0
    while i < end.ways.size():
        if (health >= end.ways[i].health and weapon >= end.ways[i].weapon
                and limit >= end.ways[i].limit):
            end.ways.erase(end.ways.begin() + i)
        else:
            i += 1
    cdef Way way
    way.health, way.weapon, way.limit, way.line = health, weapon, limit, line
    end.ways.push_back(way)


cdef inline bint rated_below(Option& one, Option& other) noexcept:
    if one.hope != other.hope:
        return one.hope < other.hope
    if one.final_first != other.final_first:
        return one.final_first < other.final_first
    return one.end < other.end


cdef void sort_row(string& row) noexcept:
    cdef size_t i, j
    cdef char card
    for i in range(1, row.size()):
        card = row[i]
        j = i
        while j > 0 and <unsigned char>row[j - 1] > <unsigned char>card:
            row[j] = row[j - 1]
            j -= 1
        row[j] = card


cdef string table_key(Node& node) noexcept:
    cdef string key
    key.reserve(6 + node.room.size() + node.under.size())
    key.push_back(<char>node.depth)
    key.push_back(<char>node.avoided)
    key.push_back(<char>node.taken)
    key.push_back(<char>node.used)
    key.push_back(<char>node.last)
    key.push_back(<char>node.room.size())
    key.append(node.room)
    key.append(node.under)
    return key


cdef string node_key(Node& node) noexcept:
    cdef string key = table_key(node)
    key.push_back(<char>node.health)
    key.push_back(<char>node.weapon)
    key.push_back(<char>node.limit)
    return key


cdef Node to_node(tuple node):
    cdef Node table
    (table.depth, table.under, table.room, table.health, table.weapon, table.limit,
     table.avoided, table.taken, table.used, table.last, table.left) = node
    return table


cdef tuple from_node(Node& node):
    return (node.depth, <bytes>node.under, <bytes>node.room, node.health, node.weapon,
            node.limit, bool(node.avoided), node.taken, bool(node.used), bool(node.last),
            node.left)


cdef tuple takes_of(const string& line):
    cdef size_t i
    cdef int code
    takes = []
    for i in range(line.size()):
        code = card_at(line, i)
        takes.append((AVOIDED, False) if code == AVOID else (code >> 1, bool(code & 1)))
    return tuple(takes)


class FastSolver(Search, Lines):
    """``Solver`` with this search."""
