//! Times [`ply_sokoboru::first_answer`] on every case of puzzle files, one thread:
//! `cargo run --release -p ply-sokoboru --example first_answers -- FILE...` prints each file's
//! each case's penalty and time, the file's total penalty, its slowest case, and the cases
//! without an answer.

use ply_search::Limits;
use ply_sokoboru::{first_answer, parse_puzzles};
use std::time::{Duration, Instant};

/// The most time one case may take before it counts as unanswered.
const PER_CASE: Duration = Duration::from_secs(30);

fn main() {
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(why) => {
                eprintln!("{path}: {why}");
                std::process::exit(1);
            }
        };
        let puzzles = match parse_puzzles(&text) {
            Ok(puzzles) => puzzles,
            Err(why) => {
                eprintln!("{path}: {why}");
                std::process::exit(1);
            }
        };
        let (mut total, mut slowest, mut missed) = (0, Duration::ZERO, Vec::new());
        for (at, puzzle) in puzzles.iter().enumerate() {
            let started = Instant::now();
            let answer = first_answer(puzzle, Limits::UNLIMITED.with_max_time(PER_CASE));
            let took = started.elapsed();
            slowest = slowest.max(took);
            match answer {
                Ok(best) => {
                    total += best.penalty;
                    println!(
                        "  case {}: penalty {} in {:.1} ms",
                        at + 1,
                        best.penalty,
                        took.as_secs_f64() * 1e3
                    );
                }
                Err(why) => missed.push(format!("case {}: {why}", at + 1)),
            }
        }
        println!(
            "{path}: total penalty {total}, slowest case {:.1} ms, {} of {} answered",
            slowest.as_secs_f64() * 1e3,
            puzzles.len() - missed.len(),
            puzzles.len()
        );
        for line in missed {
            println!("  {line}");
        }
    }
}
