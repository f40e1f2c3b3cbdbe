//! `gate demo`: a scripted agent run under gate, to show the whole flow.

/// `gate demo`. Returns the exit code.
pub fn run(_args: &crate::cli::DemoArgs) -> anyhow::Result<i32> {
    anyhow::bail!("gate demo is not built yet")
}

/// The hidden scripted agent that `gate demo` starts as its child.
pub fn agent() -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}
