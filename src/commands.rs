//! The offline subcommands: check, validate, init, approvals, completions, man.
//! Each returns the process exit code; printing happens here, deciding in [`crate::policy`].

use crate::cli::{ApprovalsAction, CheckArgs, CompletionShell, ConfigArg};

pub fn check(_args: &CheckArgs) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}

pub fn validate(_args: &ConfigArg) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}

pub fn init(_force: bool) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}

pub fn approvals(_config: &ConfigArg, _action: &ApprovalsAction) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}

pub fn completions(_shell: CompletionShell) -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}

pub fn man() -> anyhow::Result<i32> {
    anyhow::bail!("not built yet")
}
