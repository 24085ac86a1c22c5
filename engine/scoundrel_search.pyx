# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The search of ``engine.scoundrel_solver.Solver``, compiled: the same tables in the same
order, the same bounds and answers, some 18 times faster (``bench/bots.py
--only scoundrel --reference``).

``scoundrel_solver.py`` is the reference and says what every step means; this file
follows it function by function on C++ data: a table is a ``Node`` of plain numbers (its
room packed four cards to an int, the cards put under the dungeon a row interned once per
search: ``Search.rows``), what the search learned of a table is one ``Memo`` under a
64-bit key, a line is a string of takes (card * 2 + with the weapon, or ``AVOID``), and an
option's turn ending (``Pause`` there) is a flag that unwinds the search.
``tests/engine/test_scoundrel_search.py`` keeps the two equal: the same score, count of
tables and line on whole deals.
"""

from cython.operator cimport dereference as deref
from libc.stdint cimport uint32_t, uint64_t
from libcpp.deque cimport deque
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
    ROW_BITS = 25  # the id of a row put under, in a table's key (33 million rows)


cdef cppclass Node:
    int depth, health, weapon, limit, taken
    bint avoided, used, last
    int under  # the cards put under the dungeon: Search.rows[under]
    int size  # cards in the room
    uint32_t room  # the room in reveal order, a card a byte
    uint64_t left


cdef cppclass Option:
    int hope, final_first, end  # the rating: ceiling, a final score first, end health
    string line
    bint final
    int score  # of a final option, or the score a found line reaches
    Node after


cdef cppclass Found:
    int health, weapon, limit
    Option option


cdef cppclass Bound:
    int health, weapon, limit, bound


cdef cppclass Memo:
    vector[Found] lines
    vector[Bound] bounds


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


cdef inline int room_card(uint32_t room, int index) noexcept:
    return (room >> (8 * index)) & 0xFF


cdef inline uint32_t with_card(uint32_t room, int index, int card) noexcept:
    return room | (<uint32_t>card << (8 * index))


cdef inline uint64_t room_mask(uint32_t room, int size) noexcept:
    cdef uint64_t bits = 0
    cdef int i
    for i in range(size):
        bits |= (<uint64_t>1) << room_card(room, i)
    return bits


cdef inline string room_row(uint32_t room, int size) noexcept:
    cdef string row
    cdef int i
    for i in range(size):
        row.push_back(<char>room_card(room, i))
    return row


cdef uint32_t fill(uint32_t room, int* size, const string& row, size_t start,
                   size_t* taken) noexcept:
    """The room with cards of ``row`` from ``start`` on added until it holds four (or the
    row ends); ``size`` and ``taken`` count them."""
    cdef size_t at = start
    while size[0] < C_ROOM_SIZE and at < row.size():
        room = with_card(room, size[0], card_at(row, at))
        size[0] += 1
        at += 1
    taken[0] += at - start
    return room


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


cdef int room_cost(uint32_t room, int size, int weapon, int limit, int best_weapon, bint used,
                   bint last) noexcept:
    cdef int at_hand = 0, extra_sum = 0, extra_max = 0, monsters = 0, count = 0
    cdef int potions[8]
    cdef int card, points, held, extra, i, k, known
    for k in range(size):
        card = room_card(room, k)
        if kind_of[card] == C_WEAPON and points_of[card] > at_hand:
            at_hand = points_of[card]
    for k in range(size):
        card = room_card(room, k)
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
    cdef vector[string] rows  # the rows of cards put under the dungeon, each once
    cdef vector[int] row_monsters  # the monsters' values in each row
    cdef unordered_map[string, int] row_ids
    cdef unordered_map[uint64_t, int] rows_after  # (row, room avoided or cards dealt): row
    cdef unordered_map[uint64_t, Memo] memos
    cdef unordered_map[uint64_t, Walked] walks
    # The options of the table searched at each level of the search, reused from table
    # to table (a deque: a level's vector stays where it is while deeper ones are added).
    cdef deque[vector[Option]] options
    cdef deque[vector[size_t]] ranks
    cdef size_t level

    def __init__(self, dungeon, strict_weapons=False, budget=None):
        self.strict = strict_weapons
        self.deck = bytes(INDEX[card] for card in dungeon)
        self.deck_row = self.deck
        self.budget = -1 if budget is None else budget
        self.tables = 0
        self.pause_at = 1 << 62
        self.first_turn, self.avoid_turn = reference.FIRST_TURN, reference.AVOID_TURN
        self.interrupt = RUNNING
        self.level = 0
        self.memos.reserve(1 << 14)  # the median deal's tables, without growing
        self.below = [0] * (len(self.deck) + 1)
        self.monsters_below.resize(len(self.deck) + 1, 0)
        for depth in range(len(self.deck) - 1, -1, -1):
            card = self.deck[depth]
            self.below[depth] = self.below[depth + 1] | 1 << card
            self.monsters_below[depth] = self.monsters_below[depth + 1] + (
                POINTS[card] if KIND[card] == MONSTER else 0)

    # Python's side: tables as the reference's tuples

    def search(self, node, int target):
        cdef Node table = self.to_node(node)
        cdef int score = self.find(table, target)
        if self.interrupt == OVER_BUDGET:
            raise OutOfBudget
        return score

    def ceiling(self, node):
        cdef Node table = self.to_node(node)
        return self.ceiling_at(table)

    def step(self, node):
        """The takes of the line found from a table and the table or score they lead to."""
        cdef Node table = self.to_node(node)
        found = self.memos.find(table_key(table))
        if found == self.memos.end():
            return None
        cdef Found* line = find_line(&deref(found).second, table)
        if line == NULL:
            return None
        cdef Option* option = &line.option
        after = option.score if option.final else self.from_node(option.after)
        return takes_of(option.line), after

    cdef Node to_node(self, tuple node) except *:
        cdef Node table
        cdef bytes under, room
        (table.depth, under, room, table.health, table.weapon, table.limit, table.avoided,
         table.taken, table.used, table.last, table.left) = node
        if len(room) > C_ROOM_SIZE:
            raise ValueError(f"a room holds at most {C_ROOM_SIZE} cards")
        table.under = self.row_id(under)
        table.size = len(room)
        table.room = 0
        for index, card in enumerate(room):
            table.room = with_card(table.room, index, card)
        return table

    cdef tuple from_node(self, Node& node):
        cdef bytes under = self.rows[node.under]
        cdef bytes room = room_row(node.room, node.size)
        return (node.depth, under, room, node.health, node.weapon, node.limit,
                bool(node.avoided), node.taken, bool(node.used), bool(node.last), node.left)

    # The search

    cdef int find(self, Node& node, int target) noexcept:
        if self.interrupt != RUNNING:
            return 0
        cdef uint64_t key = table_key(node)
        cdef int score
        if self.recalled(key, node, target, &score):
            return score
        self.tables += 1
        if self.budget >= 0 and self.tables > self.budget:
            self.interrupt = OVER_BUDGET
            return 0
        if self.tables > self.pause_at:
            self.interrupt = PAUSED
            return 0
        if self.level == self.options.size():
            self.options.push_back(vector[Option]())
            self.ranks.push_back(vector[size_t]())
        self.level += 1
        score = self.search_options(node, key, target, self.options[self.level - 1],
                                    self.ranks[self.level - 1])
        self.level -= 1
        return score

    cdef bint recalled(self, uint64_t key, Node& node, int target, int* score) noexcept:
        """A line found from this table reaching the target, or a bound learned of it (with
        no less health, weapon and limit) below the target."""
        known = self.memos.find(key)
        if known == self.memos.end():
            return False
        cdef Memo* memo = &deref(known).second
        cdef Found* line = find_line(memo, node)
        if line != NULL and line.option.score >= target:
            score[0] = line.option.score
            return True
        cdef Bound* bound
        cdef size_t i
        for i in range(memo.bounds.size()):
            bound = &memo.bounds[i]
            if (bound.bound < target and bound.health >= node.health
                    and bound.weapon >= node.weapon and bound.limit >= node.limit):
                score[0] = bound.bound
                return True
        return False

    cdef int search_options(self, Node& node, uint64_t key, int target,
                            vector[Option]& options, vector[size_t]& ranks) noexcept:
        options.clear()
        self.ranked(node, options, ranks)
        cdef int best = C_NO_LINE
        cdef size_t hopeful = ranks.size(), avoid = 0, i
        for i in range(ranks.size()):
            if options[ranks[i]].hope < target:
                best = max(best, options[ranks[i]].hope)
                hopeful = i
                break
        for i in range(hopeful):
            if options[ranks[i]].line[0] == AVOID:
                avoid = i
                break
        # The most hopeful option's turn and the avoid's (if any), then every option in
        # order; one answered in its turn is not searched again.
        cdef size_t first = 2 if avoid else 0
        cdef bint answered_first = False, answered_avoid = False, answered
        cdef size_t index
        cdef long turn
        cdef int score
        for i in range(first + hopeful):
            if i < first:
                index = 0 if i == 0 else avoid
                turn = self.first_turn if i == 0 else self.avoid_turn
            else:
                index, turn = i - first, -1
                if (index == 0 and answered_first) or (avoid and index == avoid
                                                       and answered_avoid):
                    continue
            score = self.option(options[ranks[index]], target, turn, &answered)
            if self.interrupt != RUNNING:
                return 0
            if not answered:
                continue
            if score >= target:
                options[ranks[index]].score = score
                keep_line(&self.memos[key], node, options[ranks[index]])
                return score
            best = max(best, score)
            answered_first = answered_first or index == 0
            answered_avoid = answered_avoid or index == avoid
        cdef Bound learned
        learned.health, learned.weapon, learned.limit, learned.bound = (
            node.health, node.weapon, node.limit, best)
        self.memos[key].bounds.push_back(learned)
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
        cdef uint32_t dealt
        cdef int deeper, rest, count
        if node.taken == 0 and not node.avoided and not node.last:
            self.deal(node.depth, self.put_under(node), 0, 0, &dealt, &count, &deeper, &rest)
            option.line = string(1, AVOID)
            option.final = False
            option.after = node
            option.after.depth, option.after.under = deeper, rest
            option.after.room, option.after.size = dealt, count
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
        cdef int waiting = (<int>self.deck_row.size() - node.depth
                            + <int>self.rows[node.under].size())
        cdef uint64_t beyond_room = node.left & ~room_mask(node.room, node.size)
        cdef uint64_t after_left, values
        cdef uint32_t kept
        cdef int need, weapon, limit, size
        cdef size_t e, w
        cdef End* end
        cdef Way* way
        for e in range(walked.ends.size()):
            end = &walked.ends[e]
            size = <int>end.kept.size()
            kept = 0
            for w in range(end.kept.size()):
                kept = with_card(kept, w, card_at(end.kept, w))
            need = C_ROOM_SIZE - size
            self.deal(node.depth, node.under, kept, size, &dealt, &count, &deeper, &rest)
            after_left = beyond_room | room_mask(kept, size)
            values = monster_values(after_left)
            for w in range(end.ways.size()):
                way = &end.ways[w]
                worth(way.weapon, way.limit, values, &weapon, &limit)
                option.line = way.line
                option.after.depth, option.after.under = deeper, rest
                option.after.room, option.after.size = dealt, count
                option.after.health, option.after.weapon, option.after.limit = (
                    way.health, weapon, limit)
                option.after.avoided, option.after.taken, option.after.used = False, 0, False
                option.after.last = waiting < need
                option.after.left = after_left
                found.push_back(option)

    cdef void deal(self, int depth, int under, uint32_t room, int size, uint32_t* dealt,
                   int* count, int* deeper, int* rest) noexcept:
        """The room (``size`` cards) filled to four from the dungeon, then from the row put
        under it (fewer if there are not so many), and what is left of that row."""
        cdef size_t taken = 0
        room = fill(room, &size, self.deck_row, depth, &taken)
        deeper[0] = depth + <int>taken
        rest[0] = under
        if size < C_ROOM_SIZE and self.rows[under].size():
            taken = 0
            room = fill(room, &size, self.rows[under], 0, &taken)
            rest[0] = self.rest_of(under, <int>taken)
        dealt[0], count[0] = room, size

    cdef int put_under(self, Node& node) noexcept:
        """The row under the dungeon once the room is avoided: the room goes under it."""
        cdef uint64_t key = ((<uint64_t>node.under << 32 | node.room) << 3 | node.size) << 1
        known = self.rows_after.find(key)
        if known != self.rows_after.end():
            return deref(known).second
        cdef int row = self.row_id(self.rows[node.under] + room_row(node.room, node.size))
        self.rows_after[key] = row
        return row

    cdef int rest_of(self, int under, int dealt) noexcept:
        """The row under the dungeon once its first ``dealt`` cards are dealt."""
        cdef uint64_t key = (<uint64_t>under << 3 | dealt) << 1 | 1
        known = self.rows_after.find(key)
        if known != self.rows_after.end():
            return deref(known).second
        cdef int row = self.row_id(self.rows[under].substr(dealt))
        self.rows_after[key] = row
        return row

    cdef int row_id(self, const string& row) noexcept:
        known = self.row_ids.find(row)
        if known != self.row_ids.end():
            return deref(known).second
        cdef int id = <int>self.rows.size()
        cdef int monsters = 0
        if id >> ROW_BITS:
            self.interrupt = OVER_BUDGET  # more rows than a key holds: far past any budget
        cdef size_t i
        for i in range(row.size()):
            if kind_of[card_at(row, i)] == C_MONSTER:
                monsters += points_of[card_at(row, i)]
        self.rows.push_back(row)
        self.row_monsters.push_back(monsters)
        self.row_ids[row] = id
        return id

    cdef int monsters_left(self, int depth, int under) noexcept:
        return self.monsters_below[depth] + self.row_monsters[under]

    cdef int ceiling_at(self, Node& node) noexcept:
        cdef int strength, best_potion, best_weapon
        self.strength(node.left, node.weapon, node.limit, &strength, &best_potion, &best_weapon)
        return ceiling_of(node.health + strength - self.forced(node, best_weapon), best_potion)

    cdef int forced(self, Node& node, int best_weapon) noexcept:
        cdef int cost = room_cost(node.room, node.size, node.weapon, node.limit, best_weapon,
                                  node.used, node.last)
        if cost and node.taken == 0 and not node.avoided and not node.last:
            cost = min(cost, room_cost(self.next_room(node), C_ROOM_SIZE, node.weapon,
                                       node.limit, best_weapon, False, False))
        return cost

    cdef uint32_t next_room(self, Node& node) noexcept:
        """The room after avoiding this one (as ``deal`` would, without keeping the rows)."""
        cdef int size = 0
        cdef size_t taken = 0
        cdef uint32_t room = fill(0, &size, self.deck_row, node.depth, &taken)
        room = fill(room, &size, self.rows[node.under], 0, &taken)
        cdef int i = 0
        while size < C_ROOM_SIZE and i < node.size:  # then the avoided room itself
            room = with_card(room, size, room_card(node.room, i))
            size += 1
            i += 1
        return room

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
        cdef int ordered[4]
        cdef int i, j, card
        for i in range(node.size):  # the room's cards in rising order: rooms alike walk alike
            card = room_card(node.room, i)
            j = i
            while j > 0 and ordered[j - 1] > card:
                ordered[j] = ordered[j - 1]
                j -= 1
            ordered[j] = card
        cdef uint64_t key = node.size
        for i in range(node.size):
            key = key << 6 | ordered[i]
        key = (((((key << 5 | node.health) << 4 | node.weapon) << 7 | node.limit) << 3
                | node.taken) << 1 | node.used) << 1 | node.last
        found = self.walks.find(key)
        if found != self.walks.end():
            return &deref(found).second
        cdef Walked* walked = &self.walks[key]
        walked.death_score = C_NO_LINE
        walked.win_score = C_NO_LINE
        self.through(walked, node.last, room_row(node.room, node.size), node.health,
                     node.weapon, node.limit, node.taken, node.used, string(), -1)
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


cdef uint64_t table_key(Node& node) noexcept:
    """Depth (6 bits), the flags, the room (3 + 4 x 6 bits), the row put under (the rest)."""
    cdef uint64_t key = node.depth
    key = (((key << 1 | node.avoided) << 3 | node.taken) << 1 | node.used) << 1 | node.last
    key = key << 3 | node.size
    cdef int i
    for i in range(C_ROOM_SIZE):
        key = key << 6 | (room_card(node.room, i) if i < node.size else 0)
    return key << ROW_BITS | node.under


cdef Found* find_line(Memo* memo, Node& node) noexcept:
    cdef size_t i
    for i in range(memo.lines.size()):
        if (memo.lines[i].health == node.health and memo.lines[i].weapon == node.weapon
                and memo.lines[i].limit == node.limit):
            return &memo.lines[i]
    return NULL


cdef void keep_line(Memo* memo, Node& node, Option& option) noexcept:
    cdef Found* line = find_line(memo, node)
    cdef Found fresh
    if line == NULL:
        fresh.health, fresh.weapon, fresh.limit = node.health, node.weapon, node.limit
        memo.lines.push_back(fresh)
        line = &memo.lines.back()
    line.option = option


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
