//! Where did MCTS lose? Replays the games player 0 lost in a `ply ewn host --log` file and
//! prints, for each position where player 0 was to move, what a long solver search proves.
//!
//! `cargo run --release -p ply-ewn --example blunders -- LOG SECONDS`

use std::time::{Duration, Instant};

use ply_ewn::duel::{Color, MctsAgent, MctsAgentConfig, Setup, parse_move};

fn field<'a>(line: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":\"");
    let start = line.find(&key).expect("field") + key.len();
    let end = line[start..].find('"').expect("end") + start;
    &line[start..end]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("log");
    let secs: f64 = args[2].parse().expect("seconds");
    for line in text.lines() {
        let red_player = line.contains("\"red_player\":0");
        let digits = |s: &str| -> Vec<u8> { s.bytes().map(|b| b - b'0').collect() };
        let setup = Setup {
            red: digits(field(line, "red")).try_into().unwrap(),
            blue: digits(field(line, "blue")).try_into().unwrap(),
            dice: digits(field(line, "dice")).try_into().unwrap(),
        };
        let moves: Vec<&str> = line.split("\"mv\":\"").skip(1).map(|s| &s[..2]).collect();
        let me = if red_player { Color::Red } else { Color::Blue };
        let mut end = setup.board().unwrap();
        for mv in &moves {
            let b = mv.as_bytes();
            end.play_checked(parse_move([b[0], b[1]]).unwrap()).unwrap();
        }
        if end.winner() == Some(me) {
            continue;
        }
        let mut board = setup.board().unwrap();
        let mut trace = Vec::new();
        for mv in &moves {
            if board.to_move() == me {
                let mut agent = MctsAgent::new(MctsAgentConfig::default());
                let report = agent.search(&board, Instant::now() + Duration::from_secs_f64(secs));
                trace.push(match report.proven {
                    Some(true) => 'W',
                    Some(false) => 'L',
                    None => '?',
                });
            }
            let b = mv.as_bytes();
            board
                .play_checked(parse_move([b[0], b[1]]).unwrap())
                .unwrap();
        }
        println!("lost game: {}", trace.iter().collect::<String>());
    }
}
