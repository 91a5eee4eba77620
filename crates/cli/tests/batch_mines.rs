//! `ply mines bench` in shards: merged, the shards print what the whole bench prints.

mod common;

use common::batch::shards_equal_whole;
use common::{path_in, ply, scratch_dir, text};

#[test]
fn a_sharded_bench_merges_to_the_whole_bench() {
    let dir = scratch_dir();
    let mut args: Vec<String> = vec![
        "mines".into(),
        "bench".into(),
        // The contest's naive player opens every cell: its counts do not depend on timing.
        format!("{} mines naive", env!("CARGO_BIN_EXE_ply")),
    ];
    for seed in ["1", "2", "3"] {
        let map = path_in(&dir, &format!("m{seed}.map"));
        let out = ply(
            &["mines", "gen", "--size", "64", "--seed", seed, "-o", &map],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        args.push(map);
    }
    shards_equal_whole(&args, &[], &[7], &[]);
}
