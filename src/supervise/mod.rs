//! Supervising the agent: child process, pumps, signals, exit status.

/// Run `gate run`. Returns the exit code gate should exit with.
pub fn run(_args: &crate::cli::RunArgs) -> anyhow::Result<i32> {
    anyhow::bail!("gate run is not built yet")
}
