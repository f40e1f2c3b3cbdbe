
use builtin;
use str;

set edit:completion:arg-completer[gate] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'gate'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'gate'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand run 'Supervise an agent: decide each tool request it sends, answer on its stdin'
            cand check 'Decide one call offline and explain which layer and rule decided it'
            cand validate 'Parse the policy, report every error with line:column, run its `tests:`'
            cand init 'Write a commented host.yaml in the current directory'
            cand approvals 'Show and remove persisted "always" approvals (.gate/approvals.yaml beside host.yaml)'
            cand completions 'Print a completion script for SHELL'
            cand man 'Print a man page (roff): gate(1), a subcommand''s (`gate man run`), or host.yaml(5)'
            cand hook 'One decision as an agent''s own hook, or add/remove gate''s hook in its settings'
            cand demo 'Run a scripted demo agent under gate and show the whole flow'
            cand __demo-agent 'The demo''s scripted agent (run by `gate demo`; not for direct use)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gate;run'= {
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --mode 'Override the policy''s mode'
            cand --audit 'Append one JSON line per decision to PATH'
            cand --max-line 'Longest protocol line accepted from the agent, in bytes'
            cand --prompt-timeout 'Deny a prompt nobody answers within SECS seconds'
            cand --kill-grace 'Seconds to wait after passing a signal on (or after the agent exits, for what it left running) before killing the agent''s process group'
            cand --protocol 'The agent''s protocol [default: detected from PROGRAM: `claude` is claude; `opencode acp`, `gemini --acp`, `claude-code-acp`, `codex-acp` are acp; `codex app-server` is codex; `pi` is pi; else native]'
            cand --prompt 'Be the agent''s client (acp, codex): start a session and send TEXT; later stdin lines are further prompts'
            cand --name 'With --protocol mcp: the server''s name in rules (mcp__NAME__tool) [default: its serverInfo.name]'
            cand --web 'Also approve in a browser: serve the approval page on ADDR [default: 127.0.0.1, a random port]; the URL, with its token, goes to stderr (docs/web.md)'
            cand --notify 'Run CMD (with sh -c) for each new pending approval; $GATE_SUMMARY, $GATE_TOOL and $GATE_URL (with --web) in its environment'
            cand --approve-all 'Approve every call that would prompt (deny rules still deny)'
            cand --strict 'Deny every call that would prompt (for CI)'
            cand --non-interactive 'Never prompt (automatic when there is no controlling terminal)'
            cand --pty 'Run the agent on a pseudo-terminal; the protocol moves to $GATE_SOCKET'
            cand -q 'No one-line notice on stderr for each denied call'
            cand --quiet 'No one-line notice on stderr for each denied call'
            cand --web-bind-any 'Let --web listen on an address other than loopback (anyone who can reach it and has the token can approve)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gate;check'= {
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --mode 'Override the policy''s mode'
            cand --skill 'Activate a skill declared in host.yaml for this check (repeatable)'
            cand --annotations 'An MCP tool''s annotations as JSON (readOnlyHint, destructiveHint, ...), as `gate run` reads them from tools/list'
            cand --json 'Print one JSON object instead of text'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;validate'= {
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;init'= {
            cand --force 'Overwrite an existing host.yaml'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;approvals'= {
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand -h 'Print help'
            cand --help 'Print help'
            cand list 'List stored approvals with their ids and dates'
            cand revoke 'Remove one approval by id'
            cand clear 'Remove every stored approval'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gate;approvals;list'= {
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;approvals;revoke'= {
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;approvals;clear'= {
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;approvals;help'= {
            cand list 'List stored approvals with their ids and dates'
            cand revoke 'Remove one approval by id'
            cand clear 'Remove every stored approval'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gate;approvals;help;list'= {
        }
        &'gate;approvals;help;revoke'= {
        }
        &'gate;approvals;help;clear'= {
        }
        &'gate;approvals;help;help'= {
        }
        &'gate;completions'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;man'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;hook'= {
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --mode 'Override the policy''s mode'
            cand --audit 'Append one JSON line per decision to PATH'
            cand --strict 'Deny every call that would prompt'
            cand --approve-all 'Approve every call that would prompt (deny rules still deny)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand install 'Add gate''s hook to AGENT''s settings, keeping everything else'
            cand uninstall 'Remove exactly gate''s hook from AGENT''s settings'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gate;hook;install'= {
            cand --mode 'Override the policy''s mode'
            cand --audit 'Append one JSON line per decision to PATH'
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --user 'The user''s settings (Claude Code: ~/.claude/settings.json; pi: ~/.pi/agent/extensions/; Gemini CLI: ~/.gemini/settings.json; Codex: $CODEX_HOME/hooks.json, its default)'
            cand --project 'The project''s settings (Claude Code: .claude/settings.json here, the default; pi: .pi/extensions/; Gemini CLI: .gemini/settings.json, the default; Codex: .codex/hooks.json, loaded only in a project Codex trusts)'
            cand --strict 'Deny every call that would prompt'
            cand --approve-all 'Approve every call that would prompt (deny rules still deny)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gate;hook;uninstall'= {
            cand --mode 'Override the policy''s mode'
            cand --audit 'Append one JSON line per decision to PATH'
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --user 'The user''s settings (Claude Code: ~/.claude/settings.json; pi: ~/.pi/agent/extensions/; Gemini CLI: ~/.gemini/settings.json; Codex: $CODEX_HOME/hooks.json, its default)'
            cand --project 'The project''s settings (Claude Code: .claude/settings.json here, the default; pi: .pi/extensions/; Gemini CLI: .gemini/settings.json, the default; Codex: .codex/hooks.json, loaded only in a project Codex trusts)'
            cand --strict 'Deny every call that would prompt'
            cand --approve-all 'Approve every call that would prompt (deny rules still deny)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gate;hook;help'= {
            cand install 'Add gate''s hook to AGENT''s settings, keeping everything else'
            cand uninstall 'Remove exactly gate''s hook from AGENT''s settings'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gate;hook;help;install'= {
        }
        &'gate;hook;help;uninstall'= {
        }
        &'gate;hook;help;help'= {
        }
        &'gate;demo'= {
            cand --non-interactive 'Never prompt, even at a terminal'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;__demo-agent'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;help'= {
            cand run 'Supervise an agent: decide each tool request it sends, answer on its stdin'
            cand check 'Decide one call offline and explain which layer and rule decided it'
            cand validate 'Parse the policy, report every error with line:column, run its `tests:`'
            cand init 'Write a commented host.yaml in the current directory'
            cand approvals 'Show and remove persisted "always" approvals (.gate/approvals.yaml beside host.yaml)'
            cand completions 'Print a completion script for SHELL'
            cand man 'Print a man page (roff): gate(1), a subcommand''s (`gate man run`), or host.yaml(5)'
            cand hook 'One decision as an agent''s own hook, or add/remove gate''s hook in its settings'
            cand demo 'Run a scripted demo agent under gate and show the whole flow'
            cand __demo-agent 'The demo''s scripted agent (run by `gate demo`; not for direct use)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gate;help;run'= {
        }
        &'gate;help;check'= {
        }
        &'gate;help;validate'= {
        }
        &'gate;help;init'= {
        }
        &'gate;help;approvals'= {
            cand list 'List stored approvals with their ids and dates'
            cand revoke 'Remove one approval by id'
            cand clear 'Remove every stored approval'
        }
        &'gate;help;approvals;list'= {
        }
        &'gate;help;approvals;revoke'= {
        }
        &'gate;help;approvals;clear'= {
        }
        &'gate;help;completions'= {
        }
        &'gate;help;man'= {
        }
        &'gate;help;hook'= {
            cand install 'Add gate''s hook to AGENT''s settings, keeping everything else'
            cand uninstall 'Remove exactly gate''s hook from AGENT''s settings'
        }
        &'gate;help;hook;install'= {
        }
        &'gate;help;hook;uninstall'= {
        }
        &'gate;help;demo'= {
        }
        &'gate;help;__demo-agent'= {
        }
        &'gate;help;help'= {
        }
    ]
    $completions[$command]
}
