//! The command line (SPEC section 1), as clap definitions. Lives in the library so that the
//! man pages and completion scripts are generated from the one definition. No behaviour here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "gate",
    version,
    about = "One permission policy between a person and any AI coding agent",
    long_about = "gate starts an AI agent as a child process, reads every tool request it sends as \
newline-delimited JSON, decides it from host.yaml (deny rules, ask rules, safe list, allow rules, \
skills, session approvals, the mode, then a prompt on the terminal), and answers the agent.\n\n\
Deny is final: nothing turns a deny rule into allow. Every decision names the layer and rule \
that took it: try `gate check 'Bash(git status && rm -rf /)'`.\n\n\
The policy file is described in host.yaml(5) (`gate man host.yaml`), the protocol an agent speaks \
in docs/protocol.md.",
    after_help = "Examples:\n  gate demo                                  see the whole flow on a scripted agent\n  gate init                                  write a commented host.yaml here\n  gate check 'Bash(git push origin main)'    explain one decision\n  gate run -- my-agent --flag                supervise an agent\n  gate run --strict -- my-agent              CI: whatever would prompt is denied"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Supervise an agent: decide each tool request it sends, answer on its stdin
    Run(RunArgs),
    /// Decide one call offline and explain which layer and rule decided it
    #[command(
        after_help = "Examples:\n  gate check 'Bash(git status && rm -rf /)'\n  gate check bash '{\"command\":\"npm test\"}'\n  gate check write '{\"file_path\":\"docs/a.md\"}' --json\n\nExit status: 0 allow, 3 ask, 4 deny, 2 usage or policy error."
    )]
    Check(CheckArgs),
    /// Parse the policy, report every error with line:column, run its `tests:`
    Validate(ConfigArg),
    /// Write a commented host.yaml in the current directory
    Init {
        /// Overwrite an existing host.yaml
        #[arg(long)]
        force: bool,
    },
    /// Show and remove persisted "always" approvals (.gate/approvals.yaml beside host.yaml)
    Approvals {
        #[command(flatten)]
        config: ConfigArg,
        #[command(subcommand)]
        action: ApprovalsAction,
    },
    /// Print a completion script for SHELL
    Completions {
        #[arg(value_enum)]
        shell: CompletionShell,
    },
    /// Print a man page (roff): gate(1), a subcommand's (`gate man run`), or host.yaml(5)
    Man {
        /// A subcommand (`run`, `check`, ...) or `host.yaml`; none for gate(1)
        #[arg(value_name = "PAGE")]
        page: Option<String>,
    },
    /// One decision as an agent's own hook, or add/remove gate's hook in its settings
    #[command(
        after_help = "Examples:\n  gate hook install claude              add gate's PreToolUse hook to .claude/settings.json\n  gate hook install claude --user       ... to ~/.claude/settings.json\n  gate hook uninstall claude            remove exactly that entry\n  echo '{...hook JSON...}' | gate hook claude   one decision (what Claude Code runs)\n  gate hook install pi [--project]      pi loads gate's extension (~/.pi/agent/extensions or .pi/extensions)\n  gate hook uninstall pi                remove what `gate hook install pi` wrote\n  gate hook install codex               PreToolUse in $CODEX_HOME/hooks.json, trusted in its config.toml\n  gate hook install gemini [--user]     BeforeTool in .gemini/settings.json (or ~/.gemini)\n\nCodex's and Gemini CLI's hooks cannot wait for a person: a call the policy asks about is\ndenied with a reason that names `gate run` (run the agent under gate to be asked).\n\nUnder `gate run` ($GATE_SOCKET set) the hook asks that gate; otherwise it decides from the\nhost.yaml of the session's directory (where the agent runs the hook, or $CLAUDE_PROJECT_DIR,\n$GEMINI_PROJECT_DIR), then its parents up to the repository root, then the user's. The hook\ninput's `cwd` is only where the call runs (`cd` there first): the model can choose it."
    )]
    Hook(HookCmd),
    /// Run a scripted demo agent under gate and show the whole flow
    Demo(DemoArgs),
    /// The demo's scripted agent (run by `gate demo`; not for direct use)
    #[command(name = "__demo-agent", hide = true)]
    DemoAgent,
}

/// The command line of the calls that run once per tool call (`gate check ...`, `gate hook
/// AGENT ...`), parsed with that subcommand's own arguments only: building every subcommand's
/// arguments was a tenth of such a process's page faults. `None` wherever that parse fails
/// (help, a typo, `hook install`): the whole command line then parses and reports as it always
/// did. A property test checks that both parsers agree wherever this one succeeds.
pub fn parse_per_call(argv: &[std::ffi::OsString]) -> Option<Command> {
    use clap::FromArgMatches;
    let rest = argv.get(1..)?;
    match rest.first()?.to_str()? {
        "check" => {
            let m = CheckArgs::augment_args(clap::Command::new("check")).try_get_matches_from(rest).ok()?;
            Some(Command::Check(CheckArgs::from_arg_matches(&m).ok()?))
        }
        "hook" => {
            let m = HookArgs::augment_args(clap::Command::new("hook")).try_get_matches_from(rest).ok()?;
            Some(Command::Hook(HookCmd { action: None, decide: HookArgs::from_arg_matches(&m).ok()? }))
        }
        _ => None,
    }
}

#[derive(Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct HookCmd {
    #[command(subcommand)]
    pub action: Option<HookAction>,
    #[command(flatten)]
    pub decide: HookArgs,
}

#[derive(Subcommand, Debug, Clone)]
pub enum HookAction {
    /// Add gate's hook to AGENT's settings, keeping everything else
    Install(HookInstallArgs),
    /// Remove exactly gate's hook from AGENT's settings
    Uninstall(HookInstallArgs),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum HookAgent {
    /// Claude Code (PreToolUse; settings.json)
    Claude,
    /// pi (a `tool_call` extension: ~/.pi/agent/extensions/gate.js, or .pi/extensions/ with --project)
    Pi,
    /// Codex (PreToolUse in $CODEX_HOME/hooks.json, trusted in its config.toml)
    Codex,
    /// Gemini CLI (BeforeTool in .gemini/settings.json, or ~/.gemini/settings.json with --user)
    Gemini,
}

#[derive(Args, Debug, Clone)]
pub struct HookArgs {
    /// The agent whose hook JSON comes on stdin
    #[arg(value_enum)]
    pub agent: Option<HookAgent>,
    #[command(flatten)]
    pub config: ConfigArg,
    #[command(flatten)]
    pub flags: HookFlags,
}

/// How a hook settles what the policy asks about, as `gate run` does. With `gate hook install
/// pi`, the installed hook passes them on every call.
#[derive(Args, Debug, Clone, Default)]
pub struct HookFlags {
    /// Deny every call that would prompt
    #[arg(long, conflicts_with = "approve_all")]
    pub strict: bool,
    /// Approve every call that would prompt (deny rules still deny)
    #[arg(long)]
    pub approve_all: bool,
    /// Override the policy's mode
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// Append one JSON line per decision to PATH
    #[arg(long, value_name = "PATH")]
    pub audit: Option<PathBuf>,
}

/// The flags `gate hook pi` decides with (built from [`HookArgs`] or [`HookInstallArgs`]).
#[derive(Debug, Clone, Default)]
pub struct HookDecideArgs {
    pub config: Option<PathBuf>,
    pub approve_all: bool,
    pub strict: bool,
    pub mode: Option<ModeArg>,
    pub audit: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct HookInstallArgs {
    #[arg(value_enum)]
    pub agent: HookAgent,
    /// The user's settings (Claude Code: ~/.claude/settings.json; pi: ~/.pi/agent/extensions/;
    /// Gemini CLI: ~/.gemini/settings.json; Codex: $CODEX_HOME/hooks.json, its default)
    #[arg(long, conflicts_with = "project")]
    pub user: bool,
    /// The project's settings (Claude Code: .claude/settings.json here, the default; pi:
    /// .pi/extensions/; Gemini CLI: .gemini/settings.json, the default; Codex: .codex/hooks.json,
    /// loaded only in a project Codex trusts)
    #[arg(long)]
    pub project: bool,
    /// (pi, codex, gemini; install only) passed by the installed hook on every call
    #[command(flatten)]
    pub flags: HookFlags,
}

impl HookDecideArgs {
    fn with(config: Option<PathBuf>, f: &HookFlags) -> Self {
        HookDecideArgs { config, approve_all: f.approve_all, strict: f.strict, mode: f.mode, audit: f.audit.clone() }
    }
}

/// Where `gate hook install|uninstall pi` writes, and the flags its hook passes on.
#[derive(Debug, Clone)]
pub struct HookPlaceArgs {
    pub agent: HookAgent,
    pub user: bool,
    pub project: bool,
    pub decide: HookDecideArgs,
}

impl From<&HookInstallArgs> for HookPlaceArgs {
    fn from(a: &HookInstallArgs) -> Self {
        HookPlaceArgs { agent: a.agent, user: a.user, project: a.project, decide: HookDecideArgs::with(None, &a.flags) }
    }
}

impl From<&HookArgs> for HookDecideArgs {
    fn from(a: &HookArgs) -> Self {
        HookDecideArgs::with(a.config.config.clone(), &a.flags)
    }
}

#[derive(Subcommand, Debug)]
pub enum ApprovalsAction {
    /// List stored approvals with their ids and dates
    List,
    /// Remove one approval by id
    Revoke { id: String },
    /// Remove every stored approval
    Clear,
}

#[derive(Args, Debug, Clone, Default)]
pub struct ConfigArg {
    /// Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]
    // Global: also accepted after a subcommand's own subcommand (`gate approvals list -c x`).
    #[arg(short = 'c', long = "config", value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    #[value(name = "default")]
    Default,
    #[value(name = "acceptEdits")]
    AcceptEdits,
    #[value(name = "plan")]
    Plan,
    #[value(name = "dontAsk")]
    DontAsk,
    #[value(name = "bypassPermissions")]
    BypassPermissions,
}

impl From<ModeArg> for crate::policy::Mode {
    fn from(m: ModeArg) -> Self {
        use crate::policy::Mode;
        match m {
            ModeArg::Default => Mode::Default,
            ModeArg::AcceptEdits => Mode::AcceptEdits,
            ModeArg::Plan => Mode::Plan,
            ModeArg::DontAsk => Mode::DontAsk,
            ModeArg::BypassPermissions => Mode::BypassPermissions,
        }
    }
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    #[command(flatten)]
    pub config: ConfigArg,
    /// Override the policy's mode
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// Activate a skill declared in host.yaml for this check (repeatable)
    #[arg(long = "skill", value_name = "NAME")]
    pub skills: Vec<String>,
    /// A tool name (then ARGUMENTS_JSON), or a call in rule syntax: 'Bash(git push origin main)'
    #[arg(value_name = "TOOL")]
    pub tool: String,
    /// The call's arguments as a JSON object
    #[arg(value_name = "ARGUMENTS_JSON")]
    pub arguments: Option<String>,
    /// An MCP tool's annotations as JSON (readOnlyHint, destructiveHint, ...), as `gate run` reads them from tools/list
    #[arg(long, value_name = "JSON")]
    pub annotations: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    #[command(flatten)]
    pub config: ConfigArg,
    /// Approve every call that would prompt (deny rules still deny)
    #[arg(long, conflicts_with = "strict")]
    pub approve_all: bool,
    /// Deny every call that would prompt (for CI)
    #[arg(long)]
    pub strict: bool,
    /// Override the policy's mode
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// Append one JSON line per decision to PATH
    #[arg(long, value_name = "PATH")]
    pub audit: Option<PathBuf>,
    /// Never prompt (automatic when there is no controlling terminal)
    #[arg(long)]
    pub non_interactive: bool,
    /// Longest protocol line accepted from the agent, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024)]
    pub max_line: usize,
    /// Deny a prompt nobody answers within SECS seconds
    #[arg(long, value_name = "SECS")]
    pub prompt_timeout: Option<u64>,
    /// Seconds to wait after passing a signal on (or after the agent exits, for what it left
    /// running) before killing the agent's process group
    #[arg(long, value_name = "SECS", default_value_t = 5)]
    pub kill_grace: u64,
    /// Run the agent on a pseudo-terminal; the protocol moves to $GATE_SOCKET
    #[arg(long)]
    pub pty: bool,
    /// The agent's protocol [default: detected from PROGRAM: `claude` is claude; `opencode acp`,
    /// `gemini --acp`, `claude-code-acp`, `codex-acp` are acp; `codex app-server` is codex; `pi` is pi; else
    /// native]
    #[arg(long, value_enum, value_name = "PROTOCOL")]
    pub protocol: Option<ProtocolArg>,
    /// Be the agent's client (acp, codex): start a session and send TEXT; later stdin lines are
    /// further prompts
    #[arg(long, value_name = "TEXT")]
    pub prompt: Option<String>,
    /// With --protocol mcp: the server's name in rules (mcp__NAME__tool) [default: its serverInfo.name]
    #[arg(long, value_name = "SERVER")]
    pub name: Option<String>,
    /// No one-line notice on stderr for each denied call
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Also approve in a browser: serve the approval page on ADDR [default: 127.0.0.1, a
    /// random port]; the URL, with its token, goes to stderr (docs/web.md)
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:0")]
    pub web: Option<String>,
    /// Let --web listen on an address other than loopback (anyone who can reach it and has the
    /// token can approve)
    #[arg(long, requires = "web")]
    pub web_bind_any: bool,
    /// Run CMD (with sh -c) for each new pending approval; $GATE_SUMMARY, $GATE_TOOL and
    /// $GATE_URL (with --web) in its environment
    #[arg(long, value_name = "CMD")]
    pub notify: Option<String>,
    /// The agent and its arguments
    #[arg(required = true, last = true, value_name = "PROGRAM")]
    pub program: Vec<std::ffi::OsString>,
}

/// The protocols `gate run` speaks (see docs/agents/).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    /// gate's own protocol (docs/protocol.md)
    Native,
    /// Claude Code: stream-json control protocol headless, a hook on a terminal
    Claude,
    /// Agent Client Protocol: opencode acp, gemini --acp, claude-code-acp, codex-acp
    Acp,
    /// codex app-server
    Codex,
    /// pi: gate's extension loaded with `-e`, asking over $GATE_SOCKET
    Pi,
    /// An MCP server on stdio: gate between its host and it (tools/call decided)
    Mcp,
}

impl From<ProtocolArg> for crate::protocol::Protocol {
    fn from(p: ProtocolArg) -> Self {
        match p {
            ProtocolArg::Native => crate::protocol::Protocol::Native,
            ProtocolArg::Claude => crate::protocol::Protocol::Claude,
            ProtocolArg::Acp => crate::protocol::Protocol::Acp,
            ProtocolArg::Codex => crate::protocol::Protocol::Codex,
            ProtocolArg::Pi => crate::protocol::Protocol::Pi,
            ProtocolArg::Mcp => crate::protocol::Protocol::Mcp,
        }
    }
}

#[derive(Args, Debug, Clone, Default)]
pub struct DemoArgs {
    /// Never prompt, even at a terminal
    #[arg(long)]
    pub non_interactive: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use proptest::prelude::*;

    const WORDS: &[&str] = &[
        "check",
        "hook",
        "claude",
        "pi",
        "codex",
        "gemini",
        "install",
        "uninstall",
        "help",
        "--json",
        "--mode",
        "plan",
        "--mode=dontAsk",
        "-c",
        "x.yaml",
        "--config=y",
        "-cz",
        "--skill",
        "s",
        "Bash",
        "Bash(ls)",
        "{\"command\":\"ls\"}",
        "--",
        "-",
        "--help",
        "-h",
        "--strict",
        "--approve-all",
        "--audit",
        "a.log",
        "--annotations",
        "{}",
        "--version",
        "-V",
        "bogus",
        "--user",
        "--js",
        "",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Wherever the per-call parser accepts a command line, the whole one reads it the same.
        #[test]
        fn per_call_parse_agrees_with_the_whole_command_line(
            first in prop::sample::select(vec!["check", "hook"]),
            words in prop::collection::vec(prop::sample::select(WORDS), 0..6),
        ) {
            let argv: Vec<std::ffi::OsString> =
                std::iter::once("gate").chain(std::iter::once(first)).chain(words).map(Into::into).collect();
            if let Some(fast) = parse_per_call(&argv) {
                let whole = Cli::try_parse_from(&argv);
                prop_assert!(whole.is_ok(), "{argv:?}: per-call parse {fast:?}, whole: {}", whole.unwrap_err());
                prop_assert_eq!(format!("{fast:?}"), format!("{:?}", whole.unwrap().command), "{:?}", argv);
            }
        }
    }

    #[test]
    fn per_call_parse_takes_the_hot_calls_and_leaves_the_rest() {
        let v = |a: &[&str]| a.iter().map(Into::into).collect::<Vec<std::ffi::OsString>>();
        assert!(parse_per_call(&v(&["gate", "check", "Bash(ls)", "--json"])).is_some());
        assert!(parse_per_call(&v(&["gate", "hook", "claude", "--strict"])).is_some());
        for other in
            [&["gate", "check", "--help"][..], &["gate", "hook", "install", "claude"], &["gate", "run", "x"], &["gate"]]
        {
            assert!(parse_per_call(&v(other)).is_none(), "{other:?}");
        }
    }
}
