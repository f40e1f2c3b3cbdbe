# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_gate_global_optspecs
    string join \n h/help V/version
end

function __fish_gate_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_gate_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_gate_using_subcommand
    set -l cmd (__fish_gate_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c gate -n "__fish_gate_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gate -n "__fish_gate_needs_command" -s V -l version -d 'Print version'
complete -c gate -n "__fish_gate_needs_command" -f -a "run" -d 'Supervise an agent: decide each tool request it sends, answer on its stdin'
complete -c gate -n "__fish_gate_needs_command" -f -a "check" -d 'Decide one call offline and explain which layer and rule decided it'
complete -c gate -n "__fish_gate_needs_command" -f -a "validate" -d 'Parse the policy, report every error with line:column, run its `tests:`'
complete -c gate -n "__fish_gate_needs_command" -f -a "init" -d 'Write a commented host.yaml in the current directory'
complete -c gate -n "__fish_gate_needs_command" -f -a "approvals" -d 'Show and remove persisted "always" approvals (.gate/approvals.yaml beside host.yaml)'
complete -c gate -n "__fish_gate_needs_command" -f -a "completions" -d 'Print a completion script for SHELL'
complete -c gate -n "__fish_gate_needs_command" -f -a "man" -d 'Print a man page (roff): gate(1), a subcommand\'s (`gate man run`), or host.yaml(5)'
complete -c gate -n "__fish_gate_needs_command" -f -a "hook" -d 'One decision as an agent\'s own hook, or add/remove gate\'s hook in its settings'
complete -c gate -n "__fish_gate_needs_command" -f -a "demo" -d 'Run a scripted demo agent under gate and show the whole flow'
complete -c gate -n "__fish_gate_needs_command" -f -a "__demo-agent" -d 'The demo\'s scripted agent (run by `gate demo`; not for direct use)'
complete -c gate -n "__fish_gate_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gate -n "__fish_gate_using_subcommand run" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand run" -l mode -d 'Override the policy\'s mode' -r -f -a "default\t''
acceptEdits\t''
plan\t''
dontAsk\t''
bypassPermissions\t''"
complete -c gate -n "__fish_gate_using_subcommand run" -l audit -d 'Append one JSON line per decision to PATH' -r -F
complete -c gate -n "__fish_gate_using_subcommand run" -l max-line -d 'Longest protocol line accepted from the agent, in bytes' -r
complete -c gate -n "__fish_gate_using_subcommand run" -l prompt-timeout -d 'Deny a prompt nobody answers within SECS seconds' -r
complete -c gate -n "__fish_gate_using_subcommand run" -l kill-grace -d 'Seconds to wait after passing a signal on (or after the agent exits, for what it left running) before killing the agent\'s process group' -r
complete -c gate -n "__fish_gate_using_subcommand run" -l protocol -d 'The agent\'s protocol [default: detected from PROGRAM: `claude` is claude; `opencode acp`, `gemini --acp`, `claude-code-acp`, `codex-acp` are acp; `codex app-server` is codex; `pi` is pi; else native]' -r -f -a "native\t'gate\'s own protocol (docs/protocol.md)'
claude\t'Claude Code: stream-json control protocol headless, a hook on a terminal'
acp\t'Agent Client Protocol: opencode acp, gemini --acp, claude-code-acp, codex-acp'
codex\t'codex app-server'
pi\t'pi: gate\'s extension loaded with `-e`, asking over $GATE_SOCKET'
mcp\t'An MCP server on stdio: gate between its host and it (tools/call decided)'"
complete -c gate -n "__fish_gate_using_subcommand run" -l prompt -d 'Be the agent\'s client (acp, codex): start a session and send TEXT; later stdin lines are further prompts' -r
complete -c gate -n "__fish_gate_using_subcommand run" -l name -d 'With --protocol mcp: the server\'s name in rules (mcp__NAME__tool) [default: its serverInfo.name]' -r
complete -c gate -n "__fish_gate_using_subcommand run" -l web -d 'Also approve in a browser: serve the approval page on ADDR [default: 127.0.0.1, a random port]; the URL, with its token, goes to stderr (docs/web.md)' -r
complete -c gate -n "__fish_gate_using_subcommand run" -l notify -d 'Run CMD (with sh -c) for each new pending approval; $GATE_SUMMARY, $GATE_TOOL and $GATE_URL (with --web) in its environment' -r
complete -c gate -n "__fish_gate_using_subcommand run" -l approve-all -d 'Approve every call that would prompt (deny rules still deny)'
complete -c gate -n "__fish_gate_using_subcommand run" -l strict -d 'Deny every call that would prompt (for CI)'
complete -c gate -n "__fish_gate_using_subcommand run" -l non-interactive -d 'Never prompt (automatic when there is no controlling terminal)'
complete -c gate -n "__fish_gate_using_subcommand run" -l pty -d 'Run the agent on a pseudo-terminal; the protocol moves to $GATE_SOCKET'
complete -c gate -n "__fish_gate_using_subcommand run" -s q -l quiet -d 'No one-line notice on stderr for each denied call'
complete -c gate -n "__fish_gate_using_subcommand run" -l web-bind-any -d 'Let --web listen on an address other than loopback (anyone who can reach it and has the token can approve)'
complete -c gate -n "__fish_gate_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gate -n "__fish_gate_using_subcommand check" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand check" -l mode -d 'Override the policy\'s mode' -r -f -a "default\t''
acceptEdits\t''
plan\t''
dontAsk\t''
bypassPermissions\t''"
complete -c gate -n "__fish_gate_using_subcommand check" -l skill -d 'Activate a skill declared in host.yaml for this check (repeatable)' -r
complete -c gate -n "__fish_gate_using_subcommand check" -l annotations -d 'An MCP tool\'s annotations as JSON (readOnlyHint, destructiveHint, ...), as `gate run` reads them from tools/list' -r
complete -c gate -n "__fish_gate_using_subcommand check" -l json -d 'Print one JSON object instead of text'
complete -c gate -n "__fish_gate_using_subcommand check" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand validate" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand validate" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand init" -l force -d 'Overwrite an existing host.yaml'
complete -c gate -n "__fish_gate_using_subcommand init" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand approvals; and not __fish_seen_subcommand_from list revoke clear help" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand approvals; and not __fish_seen_subcommand_from list revoke clear help" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand approvals; and not __fish_seen_subcommand_from list revoke clear help" -f -a "list" -d 'List stored approvals with their ids and dates'
complete -c gate -n "__fish_gate_using_subcommand approvals; and not __fish_seen_subcommand_from list revoke clear help" -f -a "revoke" -d 'Remove one approval by id'
complete -c gate -n "__fish_gate_using_subcommand approvals; and not __fish_seen_subcommand_from list revoke clear help" -f -a "clear" -d 'Remove every stored approval'
complete -c gate -n "__fish_gate_using_subcommand approvals; and not __fish_seen_subcommand_from list revoke clear help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from list" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from clear" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from clear" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "list" -d 'List stored approvals with their ids and dates'
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "revoke" -d 'Remove one approval by id'
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "clear" -d 'Remove every stored approval'
complete -c gate -n "__fish_gate_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gate -n "__fish_gate_using_subcommand completions" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand man" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall help" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall help" -l mode -d 'Override the policy\'s mode' -r -f -a "default\t''
acceptEdits\t''
plan\t''
dontAsk\t''
bypassPermissions\t''"
complete -c gate -n "__fish_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall help" -l audit -d 'Append one JSON line per decision to PATH' -r -F
complete -c gate -n "__fish_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall help" -l strict -d 'Deny every call that would prompt'
complete -c gate -n "__fish_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall help" -l approve-all -d 'Approve every call that would prompt (deny rules still deny)'
complete -c gate -n "__fish_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gate -n "__fish_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall help" -a "install" -d 'Add gate\'s hook to AGENT\'s settings, keeping everything else'
complete -c gate -n "__fish_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall help" -a "uninstall" -d 'Remove exactly gate\'s hook from AGENT\'s settings'
complete -c gate -n "__fish_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l mode -d 'Override the policy\'s mode' -r -f -a "default\t''
acceptEdits\t''
plan\t''
dontAsk\t''
bypassPermissions\t''"
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l audit -d 'Append one JSON line per decision to PATH' -r -F
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l user -d 'The user\'s settings (Claude Code: ~/.claude/settings.json; pi: ~/.pi/agent/extensions/; Gemini CLI: ~/.gemini/settings.json; Codex: $CODEX_HOME/hooks.json, its default)'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l project -d 'The project\'s settings (Claude Code: .claude/settings.json here, the default; pi: .pi/extensions/; Gemini CLI: .gemini/settings.json, the default; Codex: .codex/hooks.json, loaded only in a project Codex trusts)'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l strict -d 'Deny every call that would prompt'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l approve-all -d 'Approve every call that would prompt (deny rules still deny)'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l mode -d 'Override the policy\'s mode' -r -f -a "default\t''
acceptEdits\t''
plan\t''
dontAsk\t''
bypassPermissions\t''"
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l audit -d 'Append one JSON line per decision to PATH' -r -F
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s c -l config -d 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]' -r -F
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l user -d 'The user\'s settings (Claude Code: ~/.claude/settings.json; pi: ~/.pi/agent/extensions/; Gemini CLI: ~/.gemini/settings.json; Codex: $CODEX_HOME/hooks.json, its default)'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l project -d 'The project\'s settings (Claude Code: .claude/settings.json here, the default; pi: .pi/extensions/; Gemini CLI: .gemini/settings.json, the default; Codex: .codex/hooks.json, loaded only in a project Codex trusts)'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l strict -d 'Deny every call that would prompt'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l approve-all -d 'Approve every call that would prompt (deny rules still deny)'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "install" -d 'Add gate\'s hook to AGENT\'s settings, keeping everything else'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Remove exactly gate\'s hook from AGENT\'s settings'
complete -c gate -n "__fish_gate_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gate -n "__fish_gate_using_subcommand demo" -l non-interactive -d 'Never prompt, even at a terminal'
complete -c gate -n "__fish_gate_using_subcommand demo" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand __demo-agent" -s h -l help -d 'Print help'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "run" -d 'Supervise an agent: decide each tool request it sends, answer on its stdin'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "check" -d 'Decide one call offline and explain which layer and rule decided it'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "validate" -d 'Parse the policy, report every error with line:column, run its `tests:`'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "init" -d 'Write a commented host.yaml in the current directory'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "approvals" -d 'Show and remove persisted "always" approvals (.gate/approvals.yaml beside host.yaml)'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "completions" -d 'Print a completion script for SHELL'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "man" -d 'Print a man page (roff): gate(1), a subcommand\'s (`gate man run`), or host.yaml(5)'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "hook" -d 'One decision as an agent\'s own hook, or add/remove gate\'s hook in its settings'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "demo" -d 'Run a scripted demo agent under gate and show the whole flow'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "__demo-agent" -d 'The demo\'s scripted agent (run by `gate demo`; not for direct use)'
complete -c gate -n "__fish_gate_using_subcommand help; and not __fish_seen_subcommand_from run check validate init approvals completions man hook demo __demo-agent help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c gate -n "__fish_gate_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "list" -d 'List stored approvals with their ids and dates'
complete -c gate -n "__fish_gate_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "revoke" -d 'Remove one approval by id'
complete -c gate -n "__fish_gate_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "clear" -d 'Remove every stored approval'
complete -c gate -n "__fish_gate_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "install" -d 'Add gate\'s hook to AGENT\'s settings, keeping everything else'
complete -c gate -n "__fish_gate_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "uninstall" -d 'Remove exactly gate\'s hook from AGENT\'s settings'
