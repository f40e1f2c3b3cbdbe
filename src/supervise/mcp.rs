//! An MCP server under gate (`gate run --protocol mcp`): the proxy between the host on gate's
//! stdin and stdout and the server as gate's child ([`crate::protocol::mcp`] translates), and who
//! answers an "ask" (SPEC 5.1, issue 11), in this order:
//! 1. gate's terminal prompt, if gate has a terminal;
//! 2. the web page, if `--web` is on (with a terminal, the two race: [`crate::approve::web`]);
//! 3. the host, through an MCP `elicitation/create` request, if it declared that capability;
//! 4. otherwise a denial that says how to get approval.
//!
//! `--strict` and `--approve-all` settle every ask before any of these.

use std::io::Read;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::proxy::{self, Links, ProxyAdapter};
use super::reader::ReplyTo;
use super::Prepared;
use crate::approve::{Answer, ApproveError, Approver, PromptInfo, Reply};
use crate::cli::RunArgs;
use crate::protocol::mcp::{self, lock, HostDecoder, McpEncoder, ServerDecoder, Shared};
use crate::protocol::By;

pub(crate) fn run(mut prep: Prepared, args: &RunArgs) -> anyhow::Result<i32> {
    let state: Shared = Shared::default();
    {
        let mut st = lock(&state);
        st.name = args.name.clone();
        st.disabled = prep.policy.disabled_tools();
        let ws = prep.policy.workspace();
        st.workspace = std::fs::canonicalize(ws).unwrap_or_else(|_| ws.to_path_buf());
    }
    let flags_settle = args.strict || args.approve_all;
    let approver: Option<proxy::ApproverFactory> = if flags_settle {
        None
    } else {
        // The terminal and the page, as the flags chose them; `None` when neither is there.
        let chosen = std::mem::replace(&mut prep.approver, Box::new(crate::approve::Strict));
        let person = (!chosen.nobody_to_ask()).then_some(chosen);
        let st = state.clone();
        let timeout = args.prompt_timeout.map(Duration::from_secs);
        Some(Box::new(move |links: Links| {
            lock(&st).cancel = Some(links.cancel.clone());
            Box::new(McpApprover { person, state: st, to_host: links.to_client, timeout, nonce: nonce(), asked: 0 })
                as Box<dyn Approver>
        }))
    };
    let adapter = ProxyAdapter {
        agent_decoder: Box::new(ServerDecoder { state: state.clone() }),
        client_decoder: Box::new(HostDecoder { state: state.clone() }),
        encoder: Box::new(McpEncoder { state }),
        approver,
    };
    proxy::run(prep, &args.program, adapter, flags_settle)
}

/// A word no server can guess, for gate's own request ids.
fn nonce() -> String {
    let mut b = [0u8; 8];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut b));
    if read.is_err() {
        // Unguessable enough for ids that are also remapped on a collision.
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        b = (t.as_nanos() as u64 ^ u64::from(std::process::id())).to_le_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Who answers an MCP call that needs approval (see the module's list).
pub(crate) struct McpApprover {
    /// gate's own prompt: the terminal, the web page, or both racing (`approve::choose`).
    /// `None` when gate has neither.
    person: Option<Box<dyn Approver>>,
    state: Shared,
    /// gate's stdout: the host's side.
    to_host: ReplyTo,
    /// `--prompt-timeout`: the host's dialog is given up after it.
    timeout: Option<Duration>,
    nonce: String,
    asked: u64,
}

impl McpApprover {
    fn cancelled(&self, info: &PromptInfo) -> bool {
        lock(&self.state).is_cancelled(&info.call_id.key)
    }

    /// Ask in the host's dialog: an `elicitation/create` request with gate's own id.
    fn elicit(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        self.asked += 1;
        let id = format!("gate-{}-{}", self.nonce, self.asked);
        let key = mcp::call_key(&json!(id));
        let (tx, rx) = mpsc::channel::<Value>();
        lock(&self.state).waiting.insert(key.clone(), tx);
        let give_up = |why: &str| {
            let mut st = lock(&self.state);
            st.waiting.remove(&key);
            if st.withdrawn.len() >= 1024 {
                st.withdrawn.clear();
            }
            st.withdrawn.insert(key.clone());
            drop(st);
            let mut l = serde_json::to_vec(&json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": why}
            }))
            .unwrap_or_default();
            l.push(b'\n');
            let _ = self.to_host.send(l);
        };
        crate::protocol::client::note(&format!("{} needs approval; asking in the host's dialog", info.id));
        if self.to_host.send(mcp::elicitation(&id, &message(info))).is_err() {
            lock(&self.state).waiting.remove(&key);
            return Err(ApproveError::Client("the host's side is closed".into()));
        }
        let deadline = self.timeout.map(|t| Instant::now() + t);
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(response) => return mcp::elicitation_reply(&response).map_err(ApproveError::Client),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if info.cancel.agent_gone() {
                        give_up("the MCP server exited");
                        return Err(ApproveError::AgentGone);
                    }
                    if self.cancelled(info) {
                        give_up("the host cancelled the call");
                        return Err(cancelled_error());
                    }
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        give_up("gate's prompt timed out");
                        let secs = self.timeout.map(|t| t.as_secs()).unwrap_or(0);
                        return Ok(Reply {
                            answer: Answer::RejectSoft { feedback: None },
                            by: By::NonInteractive,
                            reason: Some(format!(
                                "nobody answered the host's dialog within {secs} s (--prompt-timeout)"
                            )),
                        });
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(ApproveError::Client("the host's answer was lost".into()))
                }
            }
        }
    }
}

fn cancelled_error() -> ApproveError {
    ApproveError::Client("the host cancelled the call (notifications/cancelled) while it waited for approval".into())
}

/// What the host's dialog shows: the call, why gate asks, and what "always" would store.
fn message(info: &PromptInfo) -> String {
    let summary = crate::approve::tty::summarize(&info.call.tool, &info.call.arguments);
    let mut m = format!("gate: {summary}\n\nWhy gate asks: {}", crate::approve::why(info.decision));
    if !info.suggested.is_empty() {
        m.push_str(&format!("\n\"Always\" stores: {}", info.suggested.join(", ")));
    }
    m
}

impl Approver for McpApprover {
    fn uses_terminal(&self) -> bool {
        self.person.as_ref().is_some_and(|p| p.uses_terminal())
    }

    fn uses_terminal_for(&self, id: &str) -> bool {
        self.person.as_ref().is_some_and(|p| p.uses_terminal_for(id))
    }

    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        if self.cancelled(info) {
            return Err(cancelled_error());
        }
        if let Some(person) = self.person.as_mut() {
            lock(&self.state).prompting = Some(info.call_id.key.clone());
            let r = person.ask(info);
            let mut st = lock(&self.state);
            st.prompting = None;
            let cancelled = st.is_cancelled(&info.call_id.key);
            drop(st);
            return match r {
                Err(_) if cancelled => Err(cancelled_error()),
                r => r,
            };
        }
        // TODO(web): with `--web`, `person` is the page (racing the terminal when there is one);
        // a page that could be opened later, once the host asked, would go here.
        if lock(&self.state).host_elicits {
            lock(&self.state).prompting = Some(info.call_id.key.clone());
            let r = self.elicit(info);
            lock(&self.state).prompting = None;
            return r;
        }
        let rule = info.suggested.first().cloned().unwrap_or_else(|| info.call.tool.clone());
        Ok(Reply {
            answer: Answer::RejectSoft { feedback: None },
            by: By::NonInteractive,
            reason: Some(format!(
                "it needs approval ({}), but nobody can be asked: gate has no terminal, --web is off, and the MCP host did not declare elicitation; to get approval add a rule such as `{rule}` to host.yaml, pass --approve-all, or run gate with a terminal or --web",
                crate::approve::why(info.decision)
            )),
        })
    }
}
