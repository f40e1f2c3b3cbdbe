//! gate: one permission policy between a person and any AI coding agent.
//!
//! The library holds everything; `src/main.rs` only parses arguments and maps errors to exit
//! codes. The pure core ([`policy`], [`shell`]) does no I/O; [`config`] loads files,
//! [`supervise`] runs the agent, [`protocol`] speaks the wire, [`approve`] asks the person,
//! [`always`] keeps the patterns they approved for good.

pub mod always;
pub mod approve;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod config;
pub mod demo;
pub mod git_index;
pub mod hook;
pub mod hook_agents;
pub mod hook_pi;
pub mod man5;
pub mod policy;
pub mod protocol;
pub mod resolve;
pub mod shell;
pub mod supervise;
