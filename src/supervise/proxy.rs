//! gate in the middle of a pipe: the client (an editor, an MCP host) speaks to gate's stdin and
//! stdout as if gate were the agent; the agent (an ACP agent, `codex app-server`, an MCP server)
//! runs as gate's child. Every message passes unchanged and in order in both directions,
//! except those the adapter's decoders turn into calls: the session decides them and the
//! adapter's encoder answers, or forwards them on ([`crate::protocol::Dest`]).
//!
//! Threads: the agent's stdout reader (lines to gate's stdout, whole lines only), the client's
//! reader (gate's stdin, lines to the agent's stdin), the writers of both sides, the waiter, the
//! signal thread, and the session on the main thread. When the client closes gate's stdin,
//! gate closes the agent's stdin, waits `--kill-grace`, ends the agent and exits with its
//! status: a proxy never hangs. This module must not parse any protocol itself.

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use super::reader::{self, ReplyTo};
use super::writer::{self, ToAgent};
use super::{exit_code, reap_group, spawn_signal_thread, sys, Prepared, Wiring};
use crate::approve::Approver;
use crate::protocol::{Decoder, Encoder};

/// What the proxy needs from the agent's adapter.
pub(crate) struct ProxyAdapter {
    /// Reads what the agent writes (requests gate decides; the rest goes to the client).
    pub agent_decoder: Box<dyn Decoder>,
    /// Reads what the client writes (requests gate decides; the rest goes to the agent).
    pub client_decoder: Box<dyn Decoder>,
    pub encoder: Box<dyn Encoder>,
    /// Who answers an "ask" when no flag settles it (ACP: the editor, through the request
    /// forwarded to it). `None`: gate's prompt or the non-interactive rule.
    pub approver: Option<ApproverFactory>,
}

/// Builds the adapter's approver once the client's writer exists.
pub(crate) type ApproverFactory = Box<dyn FnOnce(Links) -> Box<dyn Approver>>;

/// The two directions, for an approver that asks the client.
pub(crate) struct Links {
    pub to_client: ReplyTo,
    #[allow(dead_code)] // for an approver that must also tell the agent (none yet)
    pub to_agent: writer::AgentTx,
    /// The session's cancellation: withdraws an open prompt (an MCP host's cancel).
    pub cancel: Arc<crate::approve::Cancel>,
}

pub(crate) fn run(
    prep: Prepared,
    argv: &[std::ffi::OsString],
    adapter: ProxyAdapter,
    flags_settle: bool,
) -> anyhow::Result<i32> {
    run_env(prep, argv, Vec::new(), adapter, flags_settle)
}

/// [`run`], with `env` added to the agent's environment (opencode's `OPENCODE_PERMISSION`).
pub(crate) fn run_env(
    mut prep: Prepared,
    argv: &[std::ffi::OsString],
    env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    adapter: ProxyAdapter,
    flags_settle: bool,
) -> anyhow::Result<i32> {
    let Some((program, rest)) = argv.split_first() else {
        anyhow::bail!("no program to run");
    };
    let signals = sys::SignalSet::block_forwarded()?;
    let Some(super::Piped { pgid, agent_in, agent_out, cancel, exit, wake_reader }) =
        super::spawn_piped(program, rest, &env)?
    else {
        return Ok(2);
    };
    spawn_signal_thread(signals, pgid, exit.clone(), cancel.clone(), prep.kill_grace, None)?;

    let to_agent = writer::AgentTx::direct_pipe(agent_in);

    // gate's stdout carries the agent's lines and gate's own: one lock, whole lines only.
    let out_lock = Arc::new(Mutex::new(()));
    let (to_client, to_client_rx) = mpsc::channel::<Vec<u8>>();
    {
        let lock = out_lock.clone();
        thread::Builder::new().name("client-out".into()).spawn(move || {
            for line in to_client_rx {
                let _g = lock.lock().unwrap_or_else(|e| e.into_inner());
                let mut out = std::io::stdout().lock();
                if out.write_all(&line).and_then(|_| out.flush()).is_err() {
                    break;
                }
            }
        })?;
    }

    if !flags_settle {
        if let Some(factory) = adapter.approver {
            prep.approver =
                factory(Links { to_client: to_client.clone(), to_agent: to_agent.clone(), cancel: cancel.clone() });
        }
    }

    let max_line = prep.max_line;
    let budget = Arc::new(reader::Budget::new(max_line.max(4 << 20)));
    let open: reader::OpenIds = Arc::default();
    let (ev_tx, ev_rx) = mpsc::channel();
    let watcher = super::start_watcher_later(&prep.reloads, ev_tx.clone());

    // The agent's side.
    let mut rd =
        reader::Reader::new(max_line, ev_tx.clone(), budget.clone(), open.clone(), wake_reader, Some(out_lock));
    rd.decoder = adapter.agent_decoder;
    rd.whole_lines = true;
    rd.own_fd = true;

    // The client's side: gate's stdin. Its end closes the agent's stdin; the agent then has
    // --kill-grace to exit.
    {
        let (wake, peer) = UnixStream::pair()?;
        let mut cr = reader::Reader::new(max_line, ev_tx, budget.clone(), open.clone(), wake, None);
        cr.wake_peer = Some(peer);
        cr.decoder = adapter.client_decoder;
        cr.to_agent = Some(to_agent.clone());
        cr.reply = Some(to_client.clone());
        cr.send_eof = false;
        cr.whole_lines = true;
        let (to_agent, exit, grace) = (to_agent.clone(), exit.clone(), prep.kill_grace);
        thread::Builder::new().name("client-in".into()).spawn(move || {
            cr.run(std::io::stdin());
            let _ = to_agent.send(ToAgent::Close);
            if !exit.exited_within(grace) {
                eprintln!(
                    "gate: the client closed its side and the agent did not exit within {} s; ending it",
                    grace.as_secs()
                );
                sys::kill_group(pgid, libc::SIGTERM);
            }
        })?;
    }

    let grace = prep.kill_grace;
    let session = prep.into_session(Wiring {
        to_agent,
        open,
        budget,
        cancel,
        stdin_pause: None,
        term: None,
        handoff: None,
        encoder: adapter.encoder,
        to_client: Some(to_client),
    });
    // The agent's output is read once everything else is set up: the stream, once it
    // starts, has gate to itself (the agent meanwhile starts, and waits on a full pipe).
    thread::Builder::new().name("agent-stdout".into()).spawn(move || rd.run(agent_out))?;
    session.run(ev_rx);
    drop(watcher);
    let status = exit.wait();
    reap_group(pgid, grace);
    Ok(match status {
        Some(s) => exit_code(s),
        None => 1,
    })
}
