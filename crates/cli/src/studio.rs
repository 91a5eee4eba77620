//! `ply studio`: the web application of ply-studio, served until Ctrl-C.

use anyhow::Result;
use clap::Args;
use ply_studio::{DEFAULT_PORT, Studio, StudioOptions, open_in_browser};

use crate::outcome::{interrupted, usage};
use crate::signals;

/// Serves every system in the browser: a local web application whose address, with its
/// token, is printed on standard output. Ctrl-C stops it.
#[derive(Args, Debug)]
pub(crate) struct StudioArgs {
    /// The port to listen on (0: any free one).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The address or name to listen on: this machine only unless another is given (the API
    /// still requires the URL's token).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Opens the page in the browser.
    #[arg(long)]
    open: bool,
    /// The most long jobs (solves, win-rate runs, games) at once, 1 to 256.
    #[arg(long, default_value_t = 4)]
    jobs: usize,
}

pub(crate) fn run(args: &StudioArgs) -> Result<()> {
    let flag = signals::interrupt_flag()?;
    let options = StudioOptions {
        host: args.host.clone(),
        port: args.port,
        jobs: args.jobs,
        token: None,
    };
    let studio = Studio::bind(&options).map_err(|e| match e {
        ply_studio::StudioError::Options(message) => usage(message),
        other => other.into(),
    })?;
    outln!("{}", studio.url())?;
    errln!("ply: note: ply studio serves at the address above; Ctrl-C stops it");
    if args.open
        && let Err(e) = open_in_browser(studio.url())
    {
        errln!("ply: note: cannot open a browser ({e}): open the address above");
    }
    studio.run(flag)?;
    Err(interrupted("ply studio stopped"))
}
