//! The session: the one place that decides. It takes the agent's protocol lines in arrival
//! order, keeps what lasts between them (active skills, session approvals, a hard stop, the
//! doom-loop counter, the policy and its reloads), asks the policy, asks the approver when the
//! policy says "ask", records each decision in the audit log, and sends the answer.
//!
//! Fail closed: every error path here answers a denial with `"source":"error"` (a panic in the
//! policy or the prompt, an audit log that cannot be written, an agent gone mid-prompt). It
//! must not read or write the pipes itself: lines come from the reader, answers go to the
//! writer thread.

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use serde_json::Value;

use super::audit::{Audit, Record};
use super::memo::{panic_text, Memo};
use super::reader::{Budget, Event, OpenIds, ReplyTo};
use super::watch::Shared;
use super::writer::{Pause, ToAgent};
use crate::approve::tty::sanitize;
use crate::approve::{AlwaysStore, Answer, Approver, Cancel, PromptInfo};
use crate::policy::{Call, Context, Decision, Layer, Mode, Policy, SessionApprovals, Verdict};
use crate::protocol::{BatchItem, By, CallId, Encoder, Incoming, IncomingCall, Resolution, Scope};

/// What an answer changes for later calls, applied once the answer is recorded.
#[derive(Default)]
struct Effects {
    session: Vec<String>,
    always: Vec<String>,
    hard_stop: bool,
}

/// Everything the session is given; its own state starts empty.
pub struct Session {
    pub policy: Policy,
    /// Where the watcher parks reloaded policies ([`super::watch`]); `None`: no live reload.
    pub reloads: Option<Arc<Shared>>,
    pub mode_override: Option<Mode>,
    pub approver: Box<dyn Approver>,
    pub always_store: Box<dyn AlwaysStore>,
    pub to_agent: super::writer::AgentTx,
    /// In a proxy: gate's stdout, the client's side (lines gate writes to the editor or host).
    pub to_client: Option<ReplyTo>,
    /// Writes answers in the agent's protocol.
    pub encoder: Box<dyn Encoder>,
    /// No one-line denial notices on stderr (`--quiet`, or the agent's screen is the terminal).
    pub quiet: bool,
    pub audit: Option<Audit>,
    pub open: OpenIds,
    pub budget: Arc<Budget>,
    pub cancel: Arc<Cancel>,
    pub stdin_pause: Option<Arc<Pause>>,
    pub term: Option<Arc<Mutex<()>>>,
    /// In `--pty` mode: gives the terminal to a prompt and takes it back ([`super::pty`]).
    pub handoff: Option<Box<dyn Handoff>>,
    pub cwd: PathBuf,
    pub state: State,
}

/// The room an answer made on the reader thread needs in the agent's stdin pipe (answers are
/// a few hundred bytes; one that quotes a huge command may still exceed it).
const FAST_ROOM: usize = 16 * 1024;

/// What lasts between lines.
#[derive(Default)]
pub struct State {
    active_skills: Vec<String>,
    approvals: SessionApprovals,
    hard_stop: bool,
    doom_last: Option<u64>,
    doom_count: u32,
    /// Counts the policies swapped in: decisions remembered under another are forgotten.
    policy_gen: u64,
    /// Decisions remembered while nothing they depended on changed ([`super::memo`]).
    memo: Memo,
}

impl Session {
    /// Take lines until the reader reports the end of the agent's output.
    pub fn run(mut self, rx: Receiver<Event>) {
        while let Ok(ev) = rx.recv() {
            if !self.event(ev) {
                break;
            }
        }
        self.state.memo.report();
    }

    /// One event from the reader. False at the end of the agent's output.
    fn event(&mut self, ev: Event) -> bool {
        // Between two decisions: the only place the policy is swapped.
        self.apply_reload();
        match ev {
            Event::Eof => return false,
            Event::Wake => {}
            Event::Line { incoming, received, cost, reply } => {
                self.handle(incoming, received, reply.as_ref());
                self.budget.release(cost);
            }
        }
        true
    }

    /// [`Session::run`] for a session the reader thread may also decide on
    /// ([`Session::answer_now`]): `queued` counts the events sent and not yet handled.
    pub fn run_shared(this: Arc<Mutex<Session>>, rx: Receiver<Event>, queued: Arc<AtomicUsize>) {
        while let Ok(ev) = rx.recv() {
            let counted = matches!(ev, Event::Line { .. });
            let go_on = this.lock().unwrap_or_else(|e| e.into_inner()).event(ev);
            if counted {
                queued.fetch_sub(1, Ordering::SeqCst);
            }
            if !go_on {
                break;
            }
        }
        this.lock().unwrap_or_else(|e| e.into_inner()).state.memo.report();
    }

    /// Send a line to the agent, or to the connection the message came on.
    fn send(&self, line: Vec<u8>, reply: Option<&ReplyTo>) {
        // If the writer (or the connection) is gone the agent is too; nothing to do.
        match reply {
            Some(r) => {
                let _ = r.send(line);
            }
            None => {
                let _ = self.to_agent.send(ToAgent::Gate(line));
            }
        }
    }

    fn handle(&mut self, incoming: Incoming, received: Instant, reply: Option<&ReplyTo>) {
        match incoming {
            Incoming::Call(r) if r.report_only => {
                self.report(&r, received);
                self.open.lock().unwrap_or_else(|e| e.into_inner()).remove(&r.id.key);
            }
            Incoming::Call(r) => {
                let key = r.id.key.clone();
                self.request(r, received, reply);
                self.open.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
            }
            Incoming::Hello { protocol } => {
                use crate::protocol::native::PROTOCOL_VERSION;
                if let Some(p) = protocol.filter(|&p| p != PROTOCOL_VERSION) {
                    eprintln!("gate: the agent asked for protocol {p}; gate speaks protocol {PROTOCOL_VERSION}");
                }
                let mode = serde_json::to_value(self.policy.mode()).unwrap_or(Value::Null);
                let disabled = self.policy.disabled_tools();
                if let Some(line) = self.encoder.welcome(&mode, &disabled) {
                    self.send(line, reply);
                }
            }
            Incoming::Skill { name, active } => {
                let skills = &mut self.state.active_skills;
                if !active {
                    skills.retain(|s| *s != name);
                } else if !self.policy.skill_names().contains(&name) {
                    // Only host.yaml grants skills: an undeclared name changes nothing (SPEC 3.5).
                    eprintln!(
                        "gate: the agent activated skill '{}', which host.yaml does not declare; ignored",
                        sanitize(&name)
                    );
                } else if !skills.contains(&name) {
                    skills.push(name);
                }
            }
            Incoming::TurnEnd => {
                self.state.active_skills.clear();
                self.state.hard_stop = false;
                self.state.doom_last = None;
                self.state.doom_count = 0;
            }
            Incoming::Bad { id: Some(id), tool, error } => {
                let call = Call { tool: tool.unwrap_or_else(|| "?".into()), arguments: Value::Null, annotations: None };
                self.answer(&id, &call, false, Resolution::error(error), received, Effects::default(), reply);
            }
            Incoming::Finished => {
                let _ = self.to_agent.send(ToAgent::Close);
            }
            Incoming::Bad { id: None, .. } | Incoming::Cancel { .. } | Incoming::Nothing | Incoming::Malformed(_) => {}
        }
    }

    fn request(&mut self, r: IncomingCall, received: Instant, reply: Option<&ReplyTo>) {
        let (resolution, effects) = self.decide(&r, &r.call, &r.batch_remaining);
        self.answer(&r.id, &r.call, true, resolution, received, effects, reply);
    }

    fn decide(&mut self, r: &IncomingCall, call: &Call, batch: &[BatchItem]) -> (Resolution, Effects) {
        if self.state.hard_stop {
            return (Resolution::batch_stopped(), Effects::default());
        }
        let (d, doom) = self.chain(r);
        self.state.doom_last = Some(doom.0);
        self.state.doom_count = doom.1;
        match d.decision {
            Verdict::Allow | Verdict::Deny => (Resolution::from_policy(d), Effects::default()),
            Verdict::Ask => self.ask(&r.id, call, d, batch),
        }
    }

    /// The chain's decision on a call, with the doom-loop counter it would leave (not yet
    /// stored: a call handed on to the deciding thread is counted there).
    fn chain(&mut self, r: &IncomingCall) -> (Decision, (u64, u32)) {
        let hash = super::memo::call_hash(&r.call);
        let mut d = self.remembered(&r.call, hash);
        let doom = self.doom_loop(&r.call, hash, &mut d);
        if r.agent_asks && d.decision == Verdict::Allow {
            // The agent's own settings ask about this call: gate is never looser than they are.
            d.decision = Verdict::Ask;
            d.reason = format!("the agent's own permission settings ask about it (gate: {})", d.reason);
        }
        (d, doom)
    }

    /// Decide and answer a call at once if no person is needed; false (nothing changed) when it
    /// must wait for the deciding thread. Called by the reader thread when nothing is queued
    /// before the call, so answers stay in arrival order.
    pub fn answer_now(&mut self, r: &IncomingCall, received: Instant, reply: Option<&ReplyTo>) -> bool {
        self.apply_reload();
        if r.report_only {
            self.report(r, received);
            return true;
        }
        if self.state.hard_stop {
            return false;
        }
        // The reader must never wait on a full pipe: an agent that writes without reading its
        // answers would wait on the reader in turn. Such calls go to the deciding thread.
        if !self.to_agent.has_room(FAST_ROOM) {
            return false;
        }
        let (d, doom) = self.chain(r);
        if d.decision == Verdict::Ask && !self.approver.answers_at_once() {
            return false;
        }
        self.state.doom_last = Some(doom.0);
        self.state.doom_count = doom.1;
        let (resolution, effects) = match d.decision {
            Verdict::Ask => self.ask(&r.id, &r.call, d, &r.batch_remaining),
            _ => (Resolution::from_policy(d), Effects::default()),
        };
        self.answer(&r.id, &r.call, true, resolution, received, effects, reply);
        true
    }

    /// A call the agent ran without asking: recorded with what the policy says of it, marked
    /// "not asked by the agent", and nothing is answered. Said on stderr when the policy would
    /// not have allowed it.
    fn report(&mut self, r: &IncomingCall, received: Instant) {
        let d = self.remembered(&r.call, super::memo::call_hash(&r.call));
        if d.decision != Verdict::Allow && !self.quiet {
            let _ = writeln!(
                std::io::stderr(),
                "gate: the agent ran {} without asking; host.yaml would {} it ({})",
                crate::approve::tty::summarize(&r.call.tool, &r.call.arguments),
                if d.decision == Verdict::Deny { "deny" } else { "ask about" },
                d.reason
            );
        }
        let outcome = Resolution::from_policy(d);
        if let Err(why) = self.audit_line(&r.id, &r.call.tool, Some(&r.call.arguments), &outcome, received, true) {
            eprintln!("gate: {why}");
        }
    }

    /// One line of the audit log, when there is one; the error names the file.
    fn audit_line(
        &mut self,
        id: &CallId,
        tool: &str,
        arguments: Option<&Value>,
        resolution: &Resolution,
        received: Instant,
        not_asked: bool,
    ) -> Result<(), String> {
        let Some(audit) = &mut self.audit else { return Ok(()) };
        let rec = Record {
            time: SystemTime::now(),
            id,
            tool: Some(tool),
            arguments,
            resolution,
            micros: received.elapsed().as_micros(),
            not_asked,
        };
        audit.record(&rec).map_err(|e| format!("cannot write the audit log {}: {e}", audit.path().display()))
    }

    /// The policy's decision on a call, where its paths really land too (symbolic links
    /// followed at this edge); answered from the memo when nothing the decision depended on
    /// has changed ([`super::memo`]). A panic in the policy is a denial.
    fn remembered(&mut self, call: &Call, hash: u64) -> Decision {
        let st = &mut self.state;
        let ctx = Context { active_skills: &st.active_skills, session: Some(&st.approvals) };
        st.memo.decide(&self.policy, &ctx, st.policy_gen, call, hash)
    }

    /// The same tool with the same arguments `threshold` times in a row is decided as the
    /// permission `doom_loop` (SPEC 3.7). It only ever makes a decision stricter.
    fn doom_loop(&self, call: &Call, key: u64, d: &mut Decision) -> (u64, u32) {
        let n = if self.state.doom_last == Some(key) { self.state.doom_count.saturating_add(1) } else { 1 };
        let dl = self.policy.doom_loop();
        if dl.threshold > 0 && n >= dl.threshold && dl.action != Verdict::Allow && d.decision != Verdict::Deny {
            *d = Decision {
                decision: dl.action,
                layer: Layer::DoomLoop,
                rule: None,
                reason: format!("the same {} call was requested {n} times in a row", call.tool),
                parts: d.parts.take(),
            };
        }
        (key, n)
    }

    fn ask(&mut self, id: &CallId, call: &Call, d: Decision, batch: &[BatchItem]) -> (Resolution, Effects) {
        let uses_terminal = self.approver.uses_terminal_for(&id.shown);
        if uses_terminal && self.cancel.agent_gone() {
            return (Resolution::error("the agent exited before the person could be asked"), Effects::default());
        }
        // An approver that answers from the call alone shows nothing and remembers nothing.
        let (suggested, shape) = if self.approver.answers_at_once() {
            (Vec::new(), crate::approve::Shape::Other)
        } else {
            (
                catch_unwind(AssertUnwindSafe(|| self.policy.suggest_patterns(call))).unwrap_or_default(),
                catch_unwind(AssertUnwindSafe(|| crate::approve::Shape::of(&self.policy, call)))
                    .unwrap_or(crate::approve::Shape::Other),
            )
        };
        let id_text = id.shown.as_str();
        let info = PromptInfo {
            id: id_text,
            call_id: id,
            call,
            shape: &shape,
            decision: &d,
            batch_remaining: batch,
            suggested: &suggested,
            cwd: &self.cwd,
            cancel: &self.cancel,
        };
        let reply = {
            let _pause = if uses_terminal { self.stdin_pause.as_deref().map(Pause::pause) } else { None };
            let _term = if uses_terminal {
                self.term.as_deref().map(|t| t.lock().unwrap_or_else(|e| e.into_inner()))
            } else {
                None
            };
            let _screen = if uses_terminal { self.handoff.as_deref().map(Released::new) } else { None };
            // Only a terminal prompt takes Ctrl-C; otherwise SIGINT is the agent's.
            self.cancel.set_prompt_open(uses_terminal);
            let approver = &mut self.approver;
            let r = catch_unwind(AssertUnwindSafe(|| approver.ask(&info)));
            self.cancel.set_prompt_open(false);
            r
        };
        let reply = match reply {
            Ok(Ok(reply)) => reply,
            Ok(Err(e)) => return (Resolution::error(e.to_string()), Effects::default()),
            Err(p) => {
                return (Resolution::error(format!("the prompt panicked: {}", panic_text(&p))), Effects::default())
            }
        };
        let mut effects = Effects::default();
        let mut o = Resolution::from_policy(d);
        o.approved = false;
        o.by = reply.by;
        let approve = |o: &mut Resolution, scope: Scope, default_reason: &str| {
            o.approved = true;
            o.scope = scope;
            o.reason = reply.reason.clone().unwrap_or_else(|| default_reason.to_string());
        };
        match reply.answer {
            Answer::Once => approve(&mut o, Scope::Once, "approved once by the user"),
            Answer::Session | Answer::Always if suggested.is_empty() => {
                eprintln!("gate: no pattern to remember for this {} call; approved once", call.tool);
                approve(&mut o, Scope::Once, "approved once by the user (nothing to remember)");
            }
            Answer::Session => {
                approve(&mut o, Scope::Session, "approved by the user for this session");
                effects.session = suggested;
            }
            Answer::Always => {
                approve(&mut o, Scope::Always, "approved by the user for good");
                effects.always = suggested;
            }
            Answer::RejectSoft { feedback } => {
                o.reason = reply.reason.unwrap_or_else(|| "rejected by the user".into());
                o.feedback = feedback;
            }
            Answer::RejectHard { feedback } => {
                o.reason = reply.reason.unwrap_or_else(|| "rejected by the user, who stopped the batch".into());
                o.feedback = feedback;
                o.hard = true;
                effects.hard_stop = true;
            }
        }
        (o, effects)
    }

    /// Persist, record, apply and send one answer.
    #[allow(clippy::too_many_arguments)]
    fn answer(
        &mut self,
        id: &CallId,
        call: &Call,
        has_arguments: bool,
        mut outcome: Resolution,
        received: Instant,
        mut effects: Effects,
        reply: Option<&ReplyTo>,
    ) {
        let tool = call.tool.as_str();
        let arguments = has_arguments.then_some(&call.arguments);
        if !effects.always.is_empty() {
            let patterns = std::mem::take(&mut effects.always);
            let seen = crate::approve::tty::summarize(tool, &call.arguments);
            if let Err(e) = self.always_store.persist(&patterns, &seen) {
                eprintln!("gate: {e}; the approval holds for this session only");
                outcome.scope = Scope::Session;
            }
            effects.session.extend(patterns);
        }
        if let Err(why) = self.audit_line(id, tool, arguments, &outcome, received, false) {
            eprintln!("gate: {why}; request {} is denied", id.shown);
            outcome = Resolution::error(why);
            outcome.hard = effects.hard_stop;
            effects = Effects { hard_stop: effects.hard_stop, ..Effects::default() };
        }
        for p in effects.session {
            if !self.state.approvals.patterns.contains(&p) {
                self.state.approvals.patterns.push(p);
            }
        }
        if effects.hard_stop {
            self.state.hard_stop = true;
        }
        // Bad lines (no arguments) were reported by the reader already.
        if !outcome.approved && !self.quiet && outcome.by != By::Batch && has_arguments {
            // Not eprintln!: a terminal that went away must not take the session down.
            let _ = writeln!(std::io::stderr(), "{}", crate::protocol::denial_notice(call, &outcome));
        }
        for (dest, line) in self.encoder.routed(id, call, &outcome) {
            match dest {
                crate::protocol::Dest::Reply => self.send(line, reply),
                crate::protocol::Dest::Agent => self.send(line, None),
                crate::protocol::Dest::Client => match &self.to_client {
                    Some(c) => {
                        let _ = c.send(line);
                    }
                    None => self.send(line, reply),
                },
            }
        }
    }

    /// Take a policy the watcher loaded, if any, and print what it reported (SPEC 4: an invalid
    /// file keeps the last good policy). The swap is one assignment between two decisions.
    fn apply_reload(&mut self) {
        let Some(shared) = &self.reloads else { return };
        let parked = shared.take();
        if let Some(r) = parked.reload {
            let mut policy = r.policy;
            if let Some(m) = self.mode_override {
                policy.set_mode(m);
            }
            let declared = policy.skill_names();
            self.state.active_skills.retain(|s| declared.contains(s));
            self.policy = policy;
            self.state.policy_gen += 1;
            let disabled = self.policy.disabled_tools();
            let what = if r.host_changed {
                shared.sources().host.as_deref().map(|p| p.display().to_string()).unwrap_or_default()
            } else {
                shared.sources().approvals.display().to_string()
            };
            let tools = if disabled.is_empty() { "none".to_string() } else { disabled.join(", ") };
            eprintln!("gate: {what} changed; the new policy is in force (disabled tools: {tools})");
            if let Some(line) = self.encoder.policy_changed(&disabled) {
                self.send(line, None);
            }
        }
        for m in parked.messages {
            eprintln!("gate: {m}");
        }
    }
}

/// The terminal lent to a prompt; given back when dropped (the prompt's result does not
/// matter, a panic included).
struct Released<'a>(&'a dyn Handoff);

impl<'a> Released<'a> {
    fn new(h: &'a dyn Handoff) -> Released<'a> {
        h.release();
        Released(h)
    }
}

impl Drop for Released<'_> {
    fn drop(&mut self) {
        self.0.reclaim();
    }
}

/// Hands the terminal to a prompt and back (`--pty`: the agent's screen is raw and full).
/// `release` runs with the agent's output held and gate's stdin paused; `reclaim` after the
/// prompt, whatever its outcome.
pub trait Handoff: Send {
    fn release(&self);
    fn reclaim(&self);
}
