//! Who threw a won game? Replays every game of a `ply ewn tournament --log` or
//! `ply ewn host --log` file and searches each position with the deep agent for a fixed time.
//! The dice are known, so every position is won or lost for the side to move; the search
//! proves which (W or L) or cannot tell in time (?). A game is decided from the start when
//! its first position is proven; a player threw it when it stood on a proven win and lost.
//!
//! The summary is the figure behind the duel's match results: an agent that converts every
//! won position still scores only half of the games whose start is decided, plus what the
//! opponent throws.
//!
//! `cargo run --release -p ply-ewn --example blunders -- LOG SECONDS [START_SECONDS]`

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use ply_ewn::duel::tournament::read_log;
use ply_ewn::duel::{Color, DeepAgent};
use ply_search::is_proven;

/// An agent's tally.
#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    /// Games whose first position was proven won for this agent.
    won_starts: u32,
    /// Games in which this agent stood on a proven win, and how many of them it won.
    stood_on_win: u32,
    converted: u32,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, log, secs, rest @ ..] = args.as_slice() else {
        panic!("usage: blunders LOG SECONDS [START_SECONDS]");
    };
    let secs: f64 = secs.parse().expect("seconds");
    let start_secs: f64 = rest.first().map_or(secs, |s| s.parse().expect("seconds"));
    let file = std::fs::File::open(log).unwrap_or_else(|e| panic!("{log}: {e}"));
    // The library's reader takes host and tournament logs alike, and checks every line.
    let games = read_log(std::io::BufReader::new(file))
        .unwrap_or_else(|e| panic!("{log}:{}: {}", e.line, e.problem))
        .games;
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut decided_starts = 0;
    for game in &games {
        let positions = game.record.positions().expect("a valid setup");
        let mut agent = DeepAgent::new(Duration::from_secs(1));
        let mut trace = String::new();
        let mut stood_on_win = [false; 2];
        for (ply, board) in positions.iter().enumerate() {
            if board.winner().is_some() {
                break;
            }
            let t = if ply == 0 { start_secs } else { secs };
            let (_, value, _) =
                agent.search_until(board, Instant::now() + Duration::from_secs_f64(t));
            // The last position of a forfeited game may have no logged move: the mover
            // follows from the colour to move.
            let red = game.record.red_player;
            let mover = if board.to_move() == Color::Red {
                red
            } else {
                1 - red
            };
            let mark = match (is_proven(value), value > 0) {
                (true, true) => {
                    stood_on_win[mover] = true;
                    'W'
                }
                (true, false) => {
                    stood_on_win[1 - mover] = true;
                    'L'
                }
                (false, _) => '?',
            };
            if ply == 0 && mark != '?' {
                decided_starts += 1;
                let owner = if mark == 'W' { mover } else { 1 - mover };
                tally
                    .entry(game.names[owner].clone())
                    .or_default()
                    .won_starts += 1;
            }
            trace.push(mark);
        }
        let winner = game.record.winner;
        for (player, stood) in stood_on_win.into_iter().enumerate() {
            let t = tally.entry(game.names[player].clone()).or_default();
            t.games += 1;
            t.wins += u32::from(winner == player);
            if stood {
                t.stood_on_win += 1;
                t.converted += u32::from(winner == player);
            }
        }
        let red = game.record.red_player;
        println!(
            "game {}: {} (red) - {}: {} wins; {trace}",
            game.record.game,
            game.names[red],
            game.names[1 - red],
            game.names[winner]
        );
    }
    println!(
        "{} games, {decided_starts} decided from the start",
        games.len()
    );
    for (name, t) in &tally {
        println!(
            "{name}: won {} of {}; won from the start {}; stood on a proven win in {} and won {} of them",
            t.wins, t.games, t.won_starts, t.stood_on_win, t.converted
        );
    }
}
