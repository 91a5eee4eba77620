//! Duplicate pruning by a finite-state machine over the blank's moves.
//!
//! Taylor, L. A. and Korf, R. E. (1993). *Pruning duplicate nodes in depth-first search.*
//! AAAI-93, 756-761. Many strings of moves lead to the same board: `UD` to the board it left,
//! twelve moves around a 2 x 2 block back to it, `ULDRUL`-like detours to a board a shorter or
//! an equal string reaches. A breadth-first search over move strings, on a board large enough
//! that no string reaches an edge, finds the *forbidden* strings: those that reach the board
//! an earlier string (shorter, or as long and first in [`Direction::ALL`] order) reaches from
//! the same start. IDA* then never takes a path that contains a forbidden string, by running an
//! Aho-Corasick automaton over the path's moves (one table lookup a node).
//!
//! Why no optimal path is lost: take, among the optimal paths to the goal, the one first in
//! that order. If it contained a forbidden string `s`, swapping `s` for its earlier equivalent
//! `t` would give a path to the same goal that is shorter, or as long and earlier: a
//! contradiction, provided `t` is legal wherever `s` is. So a string counts as forbidden only
//! when the blank's path of `t` stays inside the bounding box of the blank's path of `s` (a
//! board on which `s` is legal holds that box, so `t` is legal there too). The machine is
//! therefore the same for every board width.
//!
//! Depth 2 forbids exactly the four reversals (`UD`, `DU`, `LR`, `RL`): the parent pruning
//! the solver had before, with the same node counts.

use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;

use crate::geometry::Direction;

/// The depth of the machine the solver uses by default: deeper machines prune few more nodes
/// and take far longer to find.
pub const DEFAULT_FSM_DEPTH: usize = 12;

/// The default machine as [`MoveFsm::to_bytes`] wrote it, so that a process does not spend
/// a second finding it (a test checks it against [`MoveFsm::build`]; the `fsm_depths`
/// example's `--write` rewrites it).
static STANDARD_BYTES: &[u8] = include_bytes!("fsm-12.bin");

/// The first bytes of [`MoveFsm::to_bytes`].
const MAGIC: &[u8; 8] = b"PLYFSM1\0";

/// The shallowest machine: the reversals of single moves.
pub const MIN_FSM_DEPTH: usize = 2;

/// The deepest machine [`MoveFsm::build`] makes: the deepest whose states fit the 15 bits a
/// transition is packed in.
pub const MAX_FSM_DEPTH: usize = 13;

/// A transition into a forbidden string.
const DEAD: u32 = u32::MAX;

/// The automaton. Each state is one `u64`, so that a node reads one word: the next state for
/// each direction in 15 bits each (direction `d` at bit `15 d`), the allowed directions in the
/// top four bits.
#[derive(Clone, Debug)]
pub struct MoveFsm {
    rows: Vec<u64>,
    depth: usize,
    forbidden: usize,
}

impl MoveFsm {
    /// The state before any move.
    pub const START: u32 = 0;

    /// The machine of the forbidden strings up to `depth` moves (clamped to 2..=13).
    ///
    /// The enumeration grows about threefold with each move of depth, which is why the
    /// default machine is compiled in rather than built.
    #[must_use]
    pub fn build(depth: usize) -> MoveFsm {
        let depth = depth.clamp(MIN_FSM_DEPTH, MAX_FSM_DEPTH);
        let forbidden = forbidden_strings(depth);
        let count = forbidden.len();
        let mut fsm = automaton(&forbidden);
        fsm.depth = depth;
        fsm.forbidden = count;
        fsm
    }

    /// The machine of `depth` (clamped to 2..=13), built once per process.
    #[must_use]
    pub fn of_depth(depth: usize) -> &'static MoveFsm {
        static MACHINES: [OnceLock<MoveFsm>; MAX_FSM_DEPTH + 1] =
            [const { OnceLock::new() }; MAX_FSM_DEPTH + 1];
        let depth = depth.clamp(MIN_FSM_DEPTH, MAX_FSM_DEPTH);
        if depth == DEFAULT_FSM_DEPTH {
            return MoveFsm::standard();
        }
        MACHINES[depth].get_or_init(|| MoveFsm::build(depth))
    }

    /// The machine of `depth` if it is one ply makes ([`MIN_FSM_DEPTH`] to
    /// [`MAX_FSM_DEPTH`]), built once per process; `None` otherwise.
    #[must_use]
    pub fn try_of_depth(depth: i64) -> Option<&'static MoveFsm> {
        let depth = usize::try_from(depth).ok()?;
        (MIN_FSM_DEPTH..=MAX_FSM_DEPTH)
            .contains(&depth)
            .then(|| MoveFsm::of_depth(depth))
    }

    /// The machine of depth [`DEFAULT_FSM_DEPTH`], read once per process from the copy
    /// compiled in.
    #[must_use]
    pub fn standard() -> &'static MoveFsm {
        static FSM: OnceLock<MoveFsm> = OnceLock::new();
        FSM.get_or_init(|| {
            MoveFsm::from_bytes(STANDARD_BYTES).expect("the compiled-in machine is well formed")
        })
    }

    /// The machine as bytes: a magic string, depth, forbidden strings and states (`u32`
    /// each), then one little-endian `u64` per state.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in [self.depth, self.forbidden, self.rows.len()] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for row in &self.rows {
            out.extend_from_slice(&row.to_le_bytes());
        }
        out
    }

    /// Reads [`MoveFsm::to_bytes`]; `None` if the bytes are not such a machine (every
    /// transition must name a state).
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Option<MoveFsm> {
        let body = bytes.strip_prefix(MAGIC.as_slice())?;
        let word = |i: usize| -> Option<usize> {
            let b = body.get(4 * i..4 * i + 4)?;
            Some(u32::from_le_bytes(b.try_into().ok()?) as usize)
        };
        let (depth, forbidden, states) = (word(0)?, word(1)?, word(2)?);
        let rows = body.get(12..)?;
        if rows.len() != 8 * states || states == 0 {
            return None;
        }
        let rows: Vec<u64> = rows
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let fsm = MoveFsm {
            rows,
            depth,
            forbidden,
        };
        let valid = (0..states as u32).all(|s| {
            (0..4).all(|d| {
                fsm.allowed(s) & 1 << d == 0
                    || (fsm.next(s, Direction::from_index(d)) as usize) < states
            })
        });
        valid.then_some(fsm)
    }

    /// The machine of depth 2: the reversals only (plain parent pruning), built once.
    #[must_use]
    pub fn reversals() -> &'static MoveFsm {
        MoveFsm::of_depth(2)
    }

    /// The directions allowed from `state`, a bit set over direction indices.
    #[inline(always)]
    #[must_use]
    pub fn allowed(&self, state: u32) -> u8 {
        (self.rows[state as usize] >> 60) as u8
    }

    /// The state after `dir` from `state` (`dir` must be allowed).
    #[inline(always)]
    #[must_use]
    pub fn next(&self, state: u32, dir: Direction) -> u32 {
        (self.rows[state as usize] >> (15 * dir as u32)) as u32 & 0x7FFF
    }

    /// Whether `moves` contain no forbidden string.
    #[must_use]
    pub fn accepts(&self, moves: &[Direction]) -> bool {
        let mut state = Self::START;
        for &d in moves {
            if self.allowed(state) & (1 << d as u8) == 0 {
                return false;
            }
            state = self.next(state, d);
        }
        true
    }

    /// The number of states.
    #[must_use]
    pub fn states(&self) -> usize {
        self.rows.len()
    }

    /// The number of forbidden strings it holds.
    #[must_use]
    pub fn forbidden(&self) -> usize {
        self.forbidden
    }

    /// The longest string it looks at.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.depth
    }
}

/// How a search prunes duplicate strings of moves: the directions a state allows and the
/// state after a move. The search carries the state in its node.
pub trait Pruning: Copy {
    /// What a node carries of the moves that led to it.
    type State: Copy + std::fmt::Debug + PartialEq + Eq + Send + Sync;
    /// The state before any move.
    const START: Self::State;
    /// The directions allowed from `state`, reached by the move `last` (`None` at the root),
    /// a bit set over direction indices.
    fn allowed(self, state: Self::State, last: Option<Direction>) -> u8;
    /// The state after `dir` from `state` (`dir` must be allowed).
    fn next(self, state: Self::State, dir: Direction) -> Self::State;
}

impl Pruning for &'static MoveFsm {
    type State = u32;
    const START: u32 = MoveFsm::START;

    #[inline(always)]
    fn allowed(self, state: u32, _last: Option<Direction>) -> u8 {
        MoveFsm::allowed(self, state)
    }

    #[inline(always)]
    fn next(self, state: u32, dir: Direction) -> u32 {
        MoveFsm::next(self, state, dir)
    }
}

/// Parent pruning without a table: the pruning of [`MoveFsm::reversals`] (the same nodes),
/// from the last move alone, which the search passes anyway. On the cheapest nodes (Manhattan
/// distance) the machine's state in the node and its look-up, a load on the recursion's
/// critical path, cost about a third of the time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reversals;

impl Pruning for Reversals {
    type State = ();
    const START: () = ();

    #[inline(always)]
    fn allowed(self, (): (), last: Option<Direction>) -> u8 {
        !last.map_or(0, |d| 1 << d.opposite() as u8) & 0xF
    }

    #[inline(always)]
    fn next(self, (): (), _dir: Direction) {}
}

/// A string of moves: two bits a move, the first move in the lowest bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Moves {
    bits: u32,
    len: u8,
}

impl Moves {
    fn push(self, d: usize) -> Moves {
        Moves {
            bits: self.bits | (d as u32) << (2 * u32::from(self.len)),
            len: self.len + 1,
        }
    }

    fn get(self, i: usize) -> usize {
        (self.bits >> (2 * i) & 3) as usize
    }

    /// Whether `self` comes before `other` of the same length, in [`Direction::ALL`] order.
    fn before(self, other: Moves) -> bool {
        (0..usize::from(self.len))
            .map(|i| (self.get(i), other.get(i)))
            .find(|(a, b)| a != b)
            .is_some_and(|(a, b)| a < b)
    }
}

/// The blank's steps (row, column) per direction index.
const STEP: [(i32, i32); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

/// The rows and columns the blank visits, relative to its start: (min row, max row, min col,
/// max col).
type Bounds = (i32, i32, i32, i32);

fn contains(outer: Bounds, inner: Bounds) -> bool {
    outer.0 <= inner.0 && inner.1 <= outer.1 && outer.2 <= inner.2 && inner.3 <= outer.3
}

/// A board large enough for every string of `depth` moves from its centre, with the blank's
/// path and a 128-bit Zobrist key of the tiles kept as moves are made and unmade.
struct Scratch {
    side: i32,
    tiles: Vec<u32>,
    /// Blank's row and column, relative to the centre.
    blank: (i32, i32),
    key: u128,
    /// Bounds of the blank's path so far, one entry per move made (and the start).
    bounds: Vec<Bounds>,
}

/// The Zobrist value of `tile` on `cell` (two rounds of splitmix64).
fn zobrist(cell: u32, tile: u32) -> u128 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    let x = u64::from(cell) << 32 | u64::from(tile);
    u128::from(mix(x)) << 64 | u128::from(mix(x ^ 0xD1B5_4A32_D192_ED03))
}

impl Scratch {
    fn new(depth: usize) -> Scratch {
        let side = 2 * depth as i32 + 3;
        let tiles: Vec<u32> = (0..(side * side) as u32).collect();
        let key = tiles.iter().fold(0, |k, &t| k ^ zobrist(t, t));
        Scratch {
            side,
            tiles,
            blank: (0, 0),
            key,
            bounds: vec![(0, 0, 0, 0)],
        }
    }

    fn index(&self, (r, c): (i32, i32)) -> usize {
        let centre = self.side / 2;
        ((r + centre) * self.side + c + centre) as usize
    }

    fn swap(&mut self, a: usize, b: usize) {
        let (ta, tb) = (self.tiles[a], self.tiles[b]);
        self.key ^= zobrist(a as u32, ta) ^ zobrist(b as u32, tb);
        self.key ^= zobrist(a as u32, tb) ^ zobrist(b as u32, ta);
        self.tiles.swap(a, b);
    }

    /// Moves the blank in direction index `d`.
    fn make(&mut self, d: usize) {
        let (dr, dc) = STEP[d];
        let to = (self.blank.0 + dr, self.blank.1 + dc);
        let (a, b) = (self.index(self.blank), self.index(to));
        self.swap(a, b);
        self.blank = to;
        let last = *self.bounds.last().expect("the start's bounds");
        self.bounds.push((
            last.0.min(to.0),
            last.1.max(to.0),
            last.2.min(to.1),
            last.3.max(to.1),
        ));
    }

    /// Undoes [`Scratch::make`] of direction index `d`.
    fn unmake(&mut self, d: usize) {
        let (dr, dc) = STEP[d];
        let from = (self.blank.0 - dr, self.blank.1 - dc);
        let (a, b) = (self.index(self.blank), self.index(from));
        self.swap(a, b);
        self.blank = from;
        self.bounds.pop();
    }

    fn current_bounds(&self) -> Bounds {
        *self.bounds.last().expect("the start's bounds")
    }
}

/// A hasher for keys that are random already (Zobrist keys).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }
}

type KeyMap<V> = HashMap<u128, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// What the enumeration keeps: every board reached with the strings that reached it (the
/// key covers the blank, which is a tile), and the forbidden strings.
struct Finder {
    scratch: Scratch,
    seen: KeyMap<Vec<(Moves, Bounds)>>,
    forbidden: Vec<Moves>,
    /// Strings of the current length that are neither forbidden nor hold a forbidden one.
    extended: usize,
}

impl Finder {
    /// Visits, in [`Direction::ALL`] order, the strings of length `len` that extend `s` and
    /// hold no string `fsm` forbids (the forbidden strings shorter than `len`); `state` is
    /// `fsm`'s state after `s`.
    fn visit(&mut self, fsm: &MoveFsm, state: u32, s: Moves, len: usize) {
        if usize::from(s.len) == len {
            let bounds = self.scratch.current_bounds();
            let earlier = self.seen.entry(self.scratch.key).or_default();
            let dominated = earlier
                .iter()
                .any(|&(t, tb)| (t.len < s.len || t.before(s)) && contains(bounds, tb));
            earlier.push((s, bounds));
            if dominated {
                self.forbidden.push(s);
            } else {
                self.extended += 1;
            }
            return;
        }
        for d in 0..4 {
            if fsm.allowed(state) & 1 << d == 0 {
                continue;
            }
            self.scratch.make(d);
            self.visit(
                fsm,
                fsm.next(state, Direction::from_index(d as u32)),
                s.push(d),
                len,
            );
            self.scratch.unmake(d);
        }
    }
}

/// The minimal forbidden strings up to `depth` moves (none contains another).
fn forbidden_strings(depth: usize) -> Vec<Moves> {
    let scratch = Scratch::new(depth);
    let empty = Moves { bits: 0, len: 0 };
    let mut seen = KeyMap::default();
    seen.insert(scratch.key, vec![(empty, (0, 0, 0, 0))]);
    let mut finder = Finder {
        seen,
        scratch,
        forbidden: Vec::new(),
        extended: 1,
    };
    for len in 1..=depth {
        if finder.extended == 0 {
            break;
        }
        finder.extended = 0;
        // The strings found at this length hold no shorter forbidden one, so the machine of
        // the shorter ones enumerates exactly the candidates.
        let fsm = automaton(&finder.forbidden);
        finder.visit(&fsm, MoveFsm::START, empty, len);
    }
    finder.forbidden.sort_unstable_by_key(|m| (m.len, m.bits));
    finder.forbidden
}

/// The Aho-Corasick automaton of `forbidden`, with its dead states cut away.
fn automaton(forbidden: &[Moves]) -> MoveFsm {
    // The trie of the strings' prefixes; node 0 is the empty string.
    let mut child: Vec<[u32; 4]> = vec![[DEAD; 4]];
    let mut terminal = vec![false];
    for &s in forbidden {
        let mut node = 0usize;
        for i in 0..usize::from(s.len) {
            let d = s.get(i);
            if child[node][d] == DEAD {
                child[node][d] = child.len() as u32;
                child.push([DEAD; 4]);
                terminal.push(false);
            }
            node = child[node][d] as usize;
        }
        terminal[node] = true;
    }
    // Breadth-first: failure links and the complete transition function.
    let nodes = child.len();
    let mut fail = vec![0u32; nodes];
    let mut goto = vec![[0u32; 4]; nodes];
    let mut queue = VecDeque::new();
    for d in 0..4 {
        let c = child[0][d];
        if c == DEAD {
            goto[0][d] = 0;
        } else {
            goto[0][d] = c;
            fail[c as usize] = 0;
            queue.push_back(c as usize);
        }
    }
    while let Some(node) = queue.pop_front() {
        terminal[node] |= terminal[fail[node] as usize];
        for d in 0..4 {
            let c = child[node][d];
            if c == DEAD {
                goto[node][d] = goto[fail[node] as usize][d];
            } else {
                goto[node][d] = c;
                fail[c as usize] = goto[fail[node] as usize][d];
                queue.push_back(c as usize);
            }
        }
    }
    // Keep the live states, numbered densely from the start.
    let mut number = vec![DEAD; nodes];
    let mut order = vec![0usize];
    number[0] = 0;
    let mut i = 0;
    while i < order.len() {
        let node = order[i];
        for &c in &goto[node] {
            let c = c as usize;
            if !terminal[c] && number[c] == DEAD {
                number[c] = order.len() as u32;
                order.push(c);
            }
        }
        i += 1;
    }
    assert!(
        order.len() <= 1 << 15,
        "a machine of {} states",
        order.len()
    );
    let rows = order
        .iter()
        .map(|&node| {
            (0..4).fold(0u64, |row, d| {
                let c = goto[node][d] as usize;
                if terminal[c] {
                    row
                } else {
                    row | u64::from(number[c]) << (15 * d) | 1 << (60 + d)
                }
            })
        })
        .collect();
    MoveFsm {
        rows,
        depth: 0,
        forbidden: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(s: &str) -> Vec<Direction> {
        s.chars()
            .map(|c| {
                *Direction::ALL
                    .iter()
                    .find(|d| d.letter() == c)
                    .expect("a direction letter")
            })
            .collect()
    }

    #[test]
    fn depth_two_forbids_exactly_the_reversals() {
        let fsm = MoveFsm::build(2);
        assert_eq!(fsm.forbidden(), 4);
        assert_eq!(MoveFsm::try_of_depth(2).map(MoveFsm::forbidden), Some(4));
        for outside in [-1, 1, 14] {
            assert!(MoveFsm::try_of_depth(outside).is_none(), "{outside}");
        }
        for a in Direction::ALL {
            for b in Direction::ALL {
                assert_eq!(fsm.accepts(&[a, b]), b != a.opposite(), "{a:?} {b:?}");
            }
        }
    }

    /// The solver swaps the depth-2 machine for [`Reversals`]: both must allow the same moves
    /// after every string of moves, or the node counts of Manhattan and linear conflict change.
    #[test]
    fn reversals_prune_as_the_machine_of_depth_two() {
        let fsm = MoveFsm::reversals();
        let mut strings = vec![Vec::new()];
        for _ in 0..5 {
            let mut longer = Vec::new();
            for s in &strings {
                let (mut state, mut last) = (<&MoveFsm as Pruning>::START, None);
                for &d in s {
                    state = Pruning::next(fsm, state, d);
                    last = Some(d);
                }
                assert_eq!(
                    Pruning::allowed(fsm, state, last),
                    Reversals.allowed((), last),
                    "{s:?}"
                );
                for d in Direction::ALL
                    .into_iter()
                    .filter(|&d| fsm.allowed(state) & 1 << d as u8 != 0)
                {
                    let mut t: Vec<Direction> = s.clone();
                    t.push(d);
                    longer.push(t);
                }
            }
            strings = longer;
        }
    }

    #[test]
    fn twice_around_a_block_is_once_around_it_the_other_way() {
        let fsm = MoveFsm::build(10);
        // Three times around a 2 x 2 block is the empty string, so twice around it is once
        // around it backwards: a shorter string inside the same box.
        assert!(fsm.accepts(&moves("RDLU")));
        assert!(fsm.accepts(&moves("DRUL")));
        assert!(!fsm.accepts(&moves("RDLURDLU")));
        assert!(!fsm.accepts(&moves("UD")));
    }

    /// Every string up to `depth` moves, by DFS: (string, board key, blank's bounds).
    fn every_string(
        scratch: &mut Scratch,
        s: Moves,
        depth: usize,
        out: &mut Vec<(Moves, u128, Bounds)>,
    ) {
        out.push((s, scratch.key, scratch.current_bounds()));
        if usize::from(s.len) == depth {
            return;
        }
        for d in 0..4 {
            scratch.make(d);
            every_string(scratch, s.push(d), depth, out);
            scratch.unmake(d);
        }
    }

    #[test]
    fn forbidden_strings_have_an_accepted_equivalent_inside_their_box() {
        // Brute force on a small depth: every string the machine rejects reaches a board that
        // an accepted string, no longer, reaches too, from a start where both are legal.
        let depth = 8;
        let fsm = MoveFsm::build(depth);
        let mut all = Vec::new();
        every_string(
            &mut Scratch::new(depth),
            Moves { bits: 0, len: 0 },
            depth,
            &mut all,
        );
        assert_eq!(
            all.len(),
            (0..=depth).map(|k| 4usize.pow(k as u32)).sum::<usize>()
        );
        let accepts = |s: Moves| {
            let dirs: Vec<Direction> = (0..usize::from(s.len))
                .map(|i| Direction::from_index(s.get(i) as u32))
                .collect();
            fsm.accepts(&dirs)
        };
        let mut reached: HashMap<u128, Vec<(Moves, Bounds)>> = HashMap::new();
        for &(s, key, bounds) in &all {
            if accepts(s) {
                reached.entry(key).or_default().push((s, bounds));
            }
        }
        let mut rejected = 0;
        for &(s, key, bounds) in all.iter().filter(|&&(s, _, _)| !accepts(s)) {
            rejected += 1;
            let ok = reached.get(&key).is_some_and(|v| {
                v.iter()
                    .any(|&(t, tb)| t.len <= s.len && contains(bounds, tb))
            });
            assert!(ok, "{s:?} has no accepted equivalent");
        }
        assert!(rejected > 0);
    }

    #[test]
    fn the_compiled_in_machine_is_the_one_built() {
        let built = MoveFsm::build(DEFAULT_FSM_DEPTH);
        let standard = MoveFsm::standard();
        assert_eq!(built.rows, standard.rows);
        assert_eq!(
            (built.depth(), built.forbidden()),
            (standard.depth(), standard.forbidden())
        );
        assert_eq!(
            MoveFsm::from_bytes(&built.to_bytes()).map(|f| f.rows),
            Some(built.rows)
        );
        let mut bad = STANDARD_BYTES.to_vec();
        bad.pop();
        assert!(MoveFsm::from_bytes(&bad).is_none());
        assert!(MoveFsm::from_bytes(b"PLYFSM1").is_none());
    }

    #[test]
    fn the_machine_prunes_more_as_it_deepens() {
        let counts: Vec<usize> = [2, 6, 10]
            .into_iter()
            .map(|d| MoveFsm::build(d).forbidden())
            .collect();
        assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
    }
}
