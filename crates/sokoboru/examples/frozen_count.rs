//! Temporary.
use ply_sokoboru::{frozen, parse_puzzles};
fn main() {
    for f in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, p) in parse_puzzles(&text).unwrap().iter().enumerate() {
            let fr = frozen(p, &p.start);
            println!(
                "{f} case {} frozen {} full-frozen {}",
                i + 1,
                fr.count_ones(),
                (fr & p.start.full).count_ones()
            );
        }
    }
}
