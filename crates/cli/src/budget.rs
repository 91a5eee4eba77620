//! Search budgets shared by the solvers' commands.

use anyhow::Result;
use clap::Args;
use ply_search::Limits;

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
            limits = limits
                .with_time_limit_secs("--time-limit", secs)
                .map_err(|bad| crate::outcome::usage(bad.to_string()))?;
        }
        Ok(limits)
    }
}
