//! Search budgets shared by the solvers' commands.

use std::time::Duration;

use anyhow::Result;
use clap::Args;
use ply_search::Limits;

/// Search budgets shared by the solvers' commands.
#[derive(Args, Debug, Clone, Copy)]
pub struct BudgetArgs {
    /// Give up after generating this many nodes (the answer is then reported as unknown).
    #[arg(long, value_name = "NODES")]
    max_nodes: Option<u64>,
    /// Give up after this many seconds per instance.
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
}

impl BudgetArgs {
    /// The budgets as search limits.
    pub fn limits(self) -> Result<Limits> {
        let mut limits = Limits::UNLIMITED;
        if let Some(n) = self.max_nodes {
            limits = limits.with_max_nodes(n);
        }
        if let Some(secs) = self.time_limit {
            let time = Duration::try_from_secs_f64(secs).map_err(|_| {
                crate::outcome::usage(format!("--time-limit {secs} is not a valid duration"))
            })?;
            limits = limits.with_max_time(time);
        }
        Ok(limits)
    }
}
