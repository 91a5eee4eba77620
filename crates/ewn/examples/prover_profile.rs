//! Where the openings prover's work goes, start by start: the positions df-pn expands (its
//! `mid` calls) against the distinct positions among them (how often it re-enters one), and
//! the expansions by material and by ply.
//!
//! `cargo run --release -p ply-ewn --example prover_profile -- [STARTS [SEED [LINE [INDEX...]]]]`
//! proves STARTS (default 20) starts drawn with SEED (default 5) from the course's dice line
//! LINE (1-based, default 12), or the starts numbered INDEX when given, each in a fresh
//! table, one thread, and prints a row per start and the totals.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use ply_ewn::duel::openings::{sample, start};
use ply_ewn::duel::prover::DuelKnowledge;
use ply_ewn::duel::{Board, Color, DuelMove, course_dice};
use ply_search::{DfPn, Knowledge, Outcome, ProofTable};

/// The duel's knowledge, counting every expansion: `order` is asked once per `mid` call.
struct Counting {
    inner: DuelKnowledge,
    expansions: u64,
    distinct: HashSet<u64>,
    by_material: HashMap<(u8, u8), u64>,
    by_ply: HashMap<u32, u64>,
}

impl Knowledge<Board> for Counting {
    fn solve(&mut self, board: &Board) -> Option<Outcome> {
        self.inner.solve(board)
    }
    fn solve_deeply(&mut self, board: &Board) -> Option<Outcome> {
        self.inner.solve_deeply(board)
    }
    fn estimate(&mut self, board: &Board) -> (u32, u32) {
        self.inner.estimate(board)
    }
    fn order(&mut self, board: &Board, moves: &mut [DuelMove]) {
        self.expansions += 1;
        self.distinct
            .insert(board.hash() ^ u64::from(board.ply()) << 58);
        let material = (board.alive(Color::Red), board.alive(Color::Blue));
        *self.by_material.entry(material).or_default() += 1;
        *self.by_ply.entry(board.ply()).or_default() += 1;
        self.inner.order(board, moves);
    }
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: STARTS SEED LINE"))
        .collect();
    let starts = args.first().copied().unwrap_or(20) as u32;
    let seed = args.get(1).copied().unwrap_or(5);
    let line = args.get(2).copied().unwrap_or(12) as usize;
    let dice = course_dice()[line - 1];
    let mut table = ProofTable::<DuelMove>::new(22);
    let mut totals = Counting {
        inner: DuelKnowledge::default(),
        expansions: 0,
        distinct: HashSet::new(),
        by_material: HashMap::new(),
        by_ply: HashMap::new(),
    };
    let (mut all_expansions, mut all_distinct, mut seconds) = (0u64, 0u64, 0.0);
    println!("start   winner  expansions  distinct  re-entries  seconds");
    let chosen: Vec<u32> = args.iter().skip(3).map(|&i| i as u32).collect();
    let indices = if chosen.is_empty() {
        sample(starts, seed)
    } else {
        chosen
    };
    for index in indices {
        let (red, blue) = start(index);
        let mut board = Board::new(red, blue, dice).expect("a valid start");
        table.set_context(u64::from(index) + 1);
        let mut counting = Counting {
            inner: DuelKnowledge::default(),
            expansions: 0,
            distinct: HashSet::new(),
            by_material: HashMap::new(),
            by_ply: HashMap::new(),
        };
        let began = Instant::now();
        let result = DfPn::new(&mut table, &mut counting).prove(&mut board, 0);
        let took = began.elapsed().as_secs_f64();
        seconds += took;
        let winner = match result.proven {
            Some(true) => "red",
            Some(false) => "blue",
            None => "open",
        };
        println!(
            "{index:>6}  {winner:>6}  {:>10}  {:>8}  {:>10.2}  {took:>7.3}",
            counting.expansions,
            counting.distinct.len(),
            counting.expansions as f64 / counting.distinct.len().max(1) as f64
        );
        all_expansions += counting.expansions;
        all_distinct += counting.distinct.len() as u64;
        for (k, v) in counting.by_material {
            *totals.by_material.entry(k).or_default() += v;
        }
        for (k, v) in counting.by_ply {
            *totals.by_ply.entry(k).or_default() += v;
        }
    }
    println!(
        "all: {all_expansions} expansions of {all_distinct} distinct positions ({:.2} a \
         position), {seconds:.2} s, {:.0} ns an expansion",
        all_expansions as f64 / all_distinct.max(1) as f64,
        seconds * 1e9 / all_expansions.max(1) as f64
    );
    let mut material: Vec<_> = totals.by_material.into_iter().collect();
    material.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    println!("expansions by material (red, blue cubes alive), the ten most:");
    for ((red, blue), v) in material.into_iter().take(10) {
        println!(
            "  {red} v {blue}: {v} ({:.1} %)",
            100.0 * v as f64 / all_expansions as f64
        );
    }
    let mut plies: Vec<_> = totals.by_ply.into_iter().collect();
    plies.sort_unstable();
    println!("expansions by ply (in tens):");
    let mut tens: HashMap<u32, u64> = HashMap::new();
    for (ply, v) in plies {
        *tens.entry(ply / 10).or_default() += v;
    }
    let mut tens: Vec<_> = tens.into_iter().collect();
    tens.sort_unstable();
    for (ten, v) in tens {
        println!(
            "  plies {}-{}: {v} ({:.1} %)",
            ten * 10,
            ten * 10 + 9,
            100.0 * v as f64 / all_expansions as f64
        );
    }
}
