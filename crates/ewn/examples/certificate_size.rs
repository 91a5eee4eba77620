//! What proof certificates cost, start by start: the proof, the certificate's making (the
//! strategy walked, positions the table lost proven again) and its check with the rules
//! alone, with the strategy's size.
//!
//! `cargo run --release -p ply-ewn --example certificate_size -- [STARTS [SEED [LINE [BUDGET]]]]`
//! proves STARTS (default 20) starts drawn with SEED (default 5) from the course's dice line
//! LINE (1-based, default 12), at most BUDGET seconds each (default 60), one thread.

use std::time::Instant;

use ply_ewn::duel::openings::{certify, check_certificate, sample, start};
use ply_ewn::duel::{Board, Prover, course_dice};
use ply_search::Limits;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: STARTS SEED LINE BUDGET"))
        .collect();
    let starts = args.first().copied().unwrap_or(20) as u32;
    let seed = args.get(1).copied().unwrap_or(5);
    let line = args.get(2).copied().unwrap_or(12) as usize;
    let budget = args.get(3).copied().unwrap_or(60);
    let dice = course_dice()[line - 1];
    let mut prover = Prover::within(512 << 20);
    println!(
        "start   winner  nodes      prove_s  certify_s  check_s  winner_pos  loser_pos  races    chars"
    );
    let (mut prove_total, mut certify_total, mut check_total) = (0.0, 0.0, 0.0);
    let mut sizes = Vec::new();
    for index in sample(starts, seed) {
        let (red, blue) = start(index);
        let board = Board::new(red, blue, dice).expect("a valid start");
        prover.forget();
        let limits = Limits::UNLIMITED.with_max_time(std::time::Duration::from_secs(budget));
        let began = Instant::now();
        let proof = prover.prove(&board, &limits);
        let prove_s = began.elapsed().as_secs_f64();
        let Some(winner) = proof.winner else {
            println!("{index:<7} open");
            continue;
        };
        let began = Instant::now();
        let certificate = certify(&mut prover, &board, winner, &Limits::UNLIMITED);
        let certify_s = began.elapsed().as_secs_f64();
        let certificate = match certificate {
            Ok(c) => c,
            Err(e) => {
                println!("{index:<7} {winner:?} no certificate: {e}");
                continue;
            }
        };
        let began = Instant::now();
        let size = check_certificate(&board, winner, &certificate).expect("a certificate checks");
        let check_s = began.elapsed().as_secs_f64();
        let chars = certificate.to_text().len();
        println!(
            "{index:<7} {:<7} {:<10} {prove_s:<8.3} {certify_s:<10.3} {check_s:<8.3} {:<11} {:<10} {:<8} {chars}",
            format!("{winner:?}"),
            proof.nodes,
            size.winner_positions,
            size.loser_positions,
            size.races
        );
        prove_total += prove_s;
        certify_total += certify_s;
        check_total += check_s;
        sizes.push(chars);
    }
    sizes.sort_unstable();
    println!(
        "totals: prove {prove_total:.1} s, certify {certify_total:.1} s, check {check_total:.1} s; certificate characters median {} max {}",
        sizes.get(sizes.len() / 2).copied().unwrap_or(0),
        sizes.last().copied().unwrap_or(0)
    );
}
