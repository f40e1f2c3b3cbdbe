
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
            cand man 'Print the man page (roff)'
            cand demo 'Run a scripted demo agent under gate and show the whole flow'
            cand hook 'Decide one tool call from an agent''s own hook; install or remove that hook'
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
            cand --protocol 'The agent''s protocol [default: detected from PROGRAM: `claude` is claude, `pi` is pi, else native]'
            cand --approve-all 'Approve every call that would prompt (deny rules still deny)'
            cand --strict 'Deny every call that would prompt (for CI)'
            cand --non-interactive 'Never prompt (automatic when there is no controlling terminal)'
            cand --pty 'Run the agent on a pseudo-terminal; the protocol moves to $GATE_SOCKET'
            cand -q 'No one-line notice on stderr for each denied call'
            cand --quiet 'No one-line notice on stderr for each denied call'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gate;check'= {
            cand -c 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --mode 'Override the policy''s mode'
            cand --skill 'Activate a skill declared in host.yaml for this check (repeatable)'
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
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;approvals;revoke'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;approvals;clear'= {
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
        &'gate;demo'= {
            cand --non-interactive 'Never prompt, even at a terminal'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;hook'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand pi 'pi: read one `tool_call` event (JSON) on stdin, print {"decision":"allow"|"deny"|"ask",...}'
            cand install 'Install gate''s hook into AGENT''s configuration, and say where'
            cand uninstall 'Remove exactly what `gate hook install AGENT` wrote'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gate;hook;pi'= {
            cand -c 'Policy file [default: host.yaml in the call''s cwd or a parent folder up to the repository root, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: host.yaml in the call''s cwd or a parent folder up to the repository root, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --mode 'Override the policy''s mode'
            cand --audit 'Append one JSON line per decision to PATH'
            cand --approve-all 'Approve every call that would prompt (deny rules still deny)'
            cand --strict 'Deny every call that would prompt'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'gate;hook;install'= {
            cand -c 'Policy file [default: host.yaml in the call''s cwd or a parent folder up to the repository root, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: host.yaml in the call''s cwd or a parent folder up to the repository root, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --mode 'Override the policy''s mode'
            cand --audit 'Append one JSON line per decision to PATH'
            cand --user 'For every project: your own configuration folder [default]'
            cand --project 'For this project only: its configuration folder'
            cand --approve-all 'Approve every call that would prompt (deny rules still deny)'
            cand --strict 'Deny every call that would prompt'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gate;hook;uninstall'= {
            cand -c 'Policy file [default: host.yaml in the call''s cwd or a parent folder up to the repository root, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --config 'Policy file [default: host.yaml in the call''s cwd or a parent folder up to the repository root, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]'
            cand --mode 'Override the policy''s mode'
            cand --audit 'Append one JSON line per decision to PATH'
            cand --user 'For every project: your own configuration folder [default]'
            cand --project 'For this project only: its configuration folder'
            cand --approve-all 'Approve every call that would prompt (deny rules still deny)'
            cand --strict 'Deny every call that would prompt'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'gate;hook;help'= {
            cand pi 'pi: read one `tool_call` event (JSON) on stdin, print {"decision":"allow"|"deny"|"ask",...}'
            cand install 'Install gate''s hook into AGENT''s configuration, and say where'
            cand uninstall 'Remove exactly what `gate hook install AGENT` wrote'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'gate;hook;help;pi'= {
        }
        &'gate;hook;help;install'= {
        }
        &'gate;hook;help;uninstall'= {
        }
        &'gate;hook;help;help'= {
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
            cand man 'Print the man page (roff)'
            cand demo 'Run a scripted demo agent under gate and show the whole flow'
            cand hook 'Decide one tool call from an agent''s own hook; install or remove that hook'
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
        &'gate;help;demo'= {
        }
        &'gate;help;hook'= {
            cand pi 'pi: read one `tool_call` event (JSON) on stdin, print {"decision":"allow"|"deny"|"ask",...}'
            cand install 'Install gate''s hook into AGENT''s configuration, and say where'
            cand uninstall 'Remove exactly what `gate hook install AGENT` wrote'
        }
        &'gate;help;hook;pi'= {
        }
        &'gate;help;hook;install'= {
        }
        &'gate;help;hook;uninstall'= {
        }
        &'gate;help;__demo-agent'= {
        }
        &'gate;help;help'= {
        }
    ]
    $completions[$command]
}
