//! Every tuning constant of the solver and of the file schedule, in one place, so that a trial
//! changes one file and each value keeps the reason it was chosen beside it.

use std::time::Duration;

/// The default memory cap of the solver's searches (of all searches together when they share
/// a [`ply_search::MemoryPool`]), well inside the course's 4 GB.
///
/// The estimate counts the stored states' capacity but not the copies a growing table makes,
/// and resident memory runs to about 1.5 times the estimate, so the cap is half the course's
/// 4 GB (ledger row "memory cap"). The pair-cost tables of the layouts frozen during play
/// add at most about 80 MB per search (`MAX_TABLES`).
pub const DEFAULT_MEMORY: usize = 2 << 30;

/// The first answer's portfolio: the weight `w` of each weighted search (`f = g + w h`), in
/// the order tried each round, and the share of the round's node budget it gets (`1/d`).
/// Which weight finds a solution soonest differs from board to board, by factors of ten and
/// more (ledger row "first answer: a portfolio of weights").
pub(crate) const PORTFOLIO: [(u32, u64); 4] = [(3, 1), (5, 1), (16, 2), (4, 1)];

/// The weight of the subgoal chain's searches ([`super::greedy`]), tried when the
/// portfolio's first round found nothing: each search looks for one more box filled, so a
/// low weight keeps its answer near the cheapest way to that box.
pub(crate) const SUBGOAL_WEIGHT: u32 = 2;

/// The most states one subgoal of the chain may generate: a box at a time is a small search
/// where the whole solution is not.
pub(crate) const SUBGOAL_NODES: u64 = 20_000;

/// The fills the subgoal chain tries from one position before it goes back one more box.
pub(crate) const SUBGOAL_ALTERNATIVES: usize = 3;

/// The portfolio's round budget from which the subgoal chains run too: where the portfolio
/// finds an answer sooner, it finds a cheaper one than the chains.
pub(crate) const CHAIN_FROM_ROUND: u64 = FIRST_ROUND_NODES * GROWTH * GROWTH * GROWTH;

/// The share of the portfolio's round budget each subgoal chain gets (`1/d`): a chain
/// starts over every round where the portfolio's searches go on, so at the whole round's
/// budget the two chains would cost more than the portfolio's progress; a quarter still
/// finds the answers only chains find (ledger row "subgoal chains on a quarter").
pub(crate) const CHAIN_SHARE: u64 = 4;

/// The portfolio's round budget from which its searches end at the first solved position
/// they generate rather than the first they take: a weighted search can generate solved
/// positions early and leave them behind millions of open states of lower weighted `f`,
/// which is where the slow first answers are; in the early rounds the answers taken are a
/// little cheaper.
pub(crate) const ANY_GOAL_FROM_ROUND: u64 = FIRST_ROUND_NODES * GROWTH;

/// The node budget of a full share in the portfolio's first round.
pub(crate) const FIRST_ROUND_NODES: u64 = 10_000;

/// How much each round of the portfolio multiplies its budget by: the subgoal chains start
/// over each round, so their repeated work stays a fixed share of the last round's (rounds
/// growing twofold were slower, ledger row "subgoal chains on a quarter").
pub(crate) const GROWTH: u64 = 4;

/// The weights `(num, den)` of the searches for a cheaper answer below the first one, in
/// turn, each below the answer before: 2 is low enough that its solutions come close to the
/// optimum, high enough to find them in a fraction of a second on the course's boards
/// (ledger row "cheaper answer: one weight"); 3 before it finds a cheaper answer in a
/// fraction of that time, which a deadline keeps if the search at 2 cannot finish, and a
/// tighter bound prunes the search at 2 (ledger row "cheaper answers at 3, then 2").
pub(crate) const CHEAPER: [(u32, u32); 2] = [(3, 1), (2, 1)];

/// The cheaper answer's weights when its time is short (under [`SHORT_CHEAPER`]): 5/2
/// between 3 and 2 finds a cheaper answer where the search at 2 cannot finish; with more
/// time the search at 2 finishes, and runs dry where the answer is near the optimum, which
/// the search at 5/2 would only delay (ledger row "cheaper answers at 3, then 5/2, then 2
/// only where the cheaper phase has less than 0.5 s").
pub(crate) const CHEAPER_SHORT: [(u32, u32); 3] = [(3, 1), (5, 2), (2, 1)];

/// The cheaper answer's time below which it searches at [`CHEAPER_SHORT`]'s weights: below
/// it the search at 2 rarely finishes on the course's boards of medium size, which is where
/// a file of ten cases at 1 s leaves each case; above it, where it finishes, a search at 5/2
/// before it would delay the proof its running dry makes (same ledger row).
pub(crate) const SHORT_CHEAPER: Duration = Duration::from_millis(500);

/// The most states a cheaper answer generates, whatever its time: below an answer near the
/// optimum the search at weight 2 often runs dry, which makes it the proof, and a weighted
/// search spreads over threads worse than the exact one; a lower cap leaves the proof a
/// looser bound (ledger row "cheaper answers capped"). At short deadlines its time share
/// binds first.
pub(crate) const CHEAPER_NODES: u64 = 2_000_000;

/// The pushes of the narrowest windows a polish of the answer in hand searches
/// ([`super::polish`]); each sweep doubles them up to the whole path.
pub(crate) const POLISH_FIRST_WIDTH: usize = 4;

/// The share of an anytime finish's time left after its proof that goes to a polish of the
/// answer in hand, before the improving searches: on boards of many pairs those often find
/// nothing below a dear answer, and the polish does.
pub(crate) const POLISH_SHARE: f64 = 0.5;

/// The most states a polish generates in the cheaper-answer phase, beside the weighted
/// searches' [`CHEAPER_NODES`]: most polishes stop well before, when no window is cheaper.
pub(crate) const POLISH_NODES: u64 = 2_000_000;

/// The weight of a polish window's estimate: a window needs a cheaper way, not the
/// cheapest, and at 2 the windows that run out of states before finding one are fewer
/// (ledger row "polish windows weighted").
pub(crate) const POLISH_WEIGHT: u32 = 2;

/// The pushes of the widest windows a polish searches: wider windows almost always run out
/// of states before they find a cheaper way.
pub(crate) const POLISH_LAST_WIDTH: usize = 16;

/// The most states one window of a polish generates: a window is a small problem, and one
/// that is not gives way to the next.
pub(crate) const POLISH_WINDOW_NODES: u64 = 100_000;

/// The nodes of each answer phase (the first answer, the cheaper one) when no time limit
/// bounds it: without one the proof follows anyway, so they are only a head start.
pub(crate) const HEAD_START_NODES: u64 = 10_000_000;

/// The part of its time that an anytime finish gives the proof; the rest goes to the
/// improving searches in case the proof cannot finish (ledger row "even time shares per case
/// and a second try by `solve_anytime`").
pub(crate) const EXACT_SHARE: f64 = 0.75;

/// The weights `(num, den)` of the improving searches that follow an unfinished proof, each
/// below the best solution so far: weights this close to 1 often find the optimum itself,
/// and the last search, run dry, proves it (ledger row "improving weights").
pub(crate) const IMPROVING: [(u32, u32); 3] = [(3, 2), (5, 4), (9, 8)];

/// Positions along the solution in hand that the drift bound is fitted to (ledger row
/// "drift: fitted along the path").
pub(crate) const FIT_SAMPLES: usize = 7;

/// States kept per layout by the proof's dominance table (forgetting one only loses pruning).
pub(crate) const PER_LAYOUT: usize = 3;

/// Most pair-cost tables of frozen layouts a proof keeps (about 10 KB each; the hardest
/// course cases need a few thousand).
pub(crate) const MAX_TABLES: usize = 1 << 13;

/// The share of the time to the file's deadline kept for stopping: a twentieth. Searches
/// stop a little after their time is up (between two looks at the clock, and while freeing
/// their tables).
pub(crate) const STOPPING_SHARE: u32 = 20;

/// A case's share of the time from which proofs need not wait for every case's cheaper
/// answer: with seconds a case, no case's answer is at risk.
pub(crate) const AMPLE: Duration = Duration::from_secs(2);

/// The least time worth starting a proof: building its tables takes milliseconds (tens on
/// boards of fifteen pairs), and a search that cannot start would only overrun the deadline.
pub(crate) const MIN_EXACT: Duration = Duration::from_millis(25);

/// The least time worth a second try at a case.
pub(crate) const MIN_RETRY: Duration = Duration::from_millis(500);
