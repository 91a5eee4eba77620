//! Search budgets shared by the solvers' commands.

use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use ply_search::Limits;
use ply_search::messages::{duration_problem, short_number};

/// How long after the arguments are read a search may start: a century.
const HEADROOM: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// Search budgets shared by the solvers' commands.
#[derive(Args, Debug, Clone, Copy)]
pub(crate) struct BudgetArgs {
    /// Give up after generating this many nodes (the answer is then reported as unknown).
    #[arg(long, value_name = "NODES")]
    max_nodes: Option<u64>,
    /// Give up after this many seconds per instance.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    time_limit: Option<f64>,
}

impl BudgetArgs {
    /// The budgets as a batch's log records them (they change an item's result).
    pub(crate) fn work(self) -> serde_json::Map<String, serde_json::Value> {
        let mut work = serde_json::Map::new();
        work.insert("max_nodes".into(), serde_json::json!(self.max_nodes));
        work.insert("time_limit".into(), serde_json::json!(self.time_limit));
        work
    }

    /// The budgets as search limits.
    pub(crate) fn limits(self) -> Result<Limits> {
        let mut limits = Limits::UNLIMITED;
        if let Some(n) = self.max_nodes {
            limits = limits.with_max_nodes(n);
        }
        if let Some(secs) = self.time_limit {
            let time = Duration::try_from_secs_f64(secs).map_err(|_| {
                crate::outcome::usage(format!(
                    "--time-limit {} {}",
                    short_number(secs),
                    duration_problem(secs).unwrap_or("is not a valid duration")
                ))
            })?;
            // A limit the clock cannot represent is no limit (adding it to an instant would
            // overflow); the headroom covers searches that start long after this.
            if Instant::now()
                .checked_add(time.saturating_add(HEADROOM))
                .is_some()
            {
                limits = limits.with_max_time(time);
            }
        }
        Ok(limits)
    }
}

#[cfg(test)]
mod tests {
    use super::BudgetArgs;
    use std::time::Duration;

    fn limit(secs: f64) -> Option<Duration> {
        let args = BudgetArgs {
            max_nodes: None,
            time_limit: Some(secs),
        };
        args.limits().expect("a valid limit").max_time
    }

    #[test]
    fn time_limits_past_the_clocks_range_are_no_limit() {
        assert_eq!(limit(2.5), Some(Duration::from_millis(2500)));
        for secs in [9.3e18, 1e19, 1.8e19] {
            assert_eq!(limit(secs), None, "{secs}");
        }
        assert!(limit(1e9).is_some());
    }
}
