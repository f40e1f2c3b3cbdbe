
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'gate' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'gate'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'gate' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Supervise an agent: decide each tool request it sends, answer on its stdin')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Decide one call offline and explain which layer and rule decided it')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Parse the policy, report every error with line:column, run its `tests:`')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a commented host.yaml in the current directory')
            [CompletionResult]::new('approvals', 'approvals', [CompletionResultType]::ParameterValue, 'Show and remove persisted "always" approvals (.gate/approvals.yaml beside host.yaml)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a completion script for SHELL')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page (roff): gate(1), a subcommand''s (`gate man run`), or host.yaml(5)')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'One decision as an agent''s own hook, or add/remove gate''s hook in its settings')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Run a scripted demo agent under gate and show the whole flow')
            [CompletionResult]::new('__demo-agent', '__demo-agent', [CompletionResultType]::ParameterValue, 'The demo''s scripted agent (run by `gate demo`; not for direct use)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gate;run' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'Override the policy''s mode')
            [CompletionResult]::new('--audit', '--audit', [CompletionResultType]::ParameterName, 'Append one JSON line per decision to PATH')
            [CompletionResult]::new('--max-line', '--max-line', [CompletionResultType]::ParameterName, 'Longest protocol line accepted from the agent, in bytes')
            [CompletionResult]::new('--prompt-timeout', '--prompt-timeout', [CompletionResultType]::ParameterName, 'Deny a prompt nobody answers within SECS seconds')
            [CompletionResult]::new('--kill-grace', '--kill-grace', [CompletionResultType]::ParameterName, 'Seconds to wait after passing a signal on (or after the agent exits, for what it left running) before killing the agent''s process group')
            [CompletionResult]::new('--protocol', '--protocol', [CompletionResultType]::ParameterName, 'The agent''s protocol [default: detected from PROGRAM: `claude` is claude; `opencode acp`, `gemini --acp`, `claude-code-acp`, `codex-acp` are acp; `codex app-server` is codex; `pi` is pi; else native]')
            [CompletionResult]::new('--prompt', '--prompt', [CompletionResultType]::ParameterName, 'Be the agent''s client (acp, codex): start a session and send TEXT; later stdin lines are further prompts')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'With --protocol mcp: the server''s name in rules (mcp__NAME__tool) [default: its serverInfo.name]')
            [CompletionResult]::new('--web', '--web', [CompletionResultType]::ParameterName, 'Also approve in a browser: serve the approval page on ADDR [default: 127.0.0.1, a random port]; the URL, with its token, goes to stderr (docs/web.md)')
            [CompletionResult]::new('--notify', '--notify', [CompletionResultType]::ParameterName, 'Run CMD (with sh -c) for each new pending approval; $GATE_SUMMARY, $GATE_TOOL and $GATE_URL (with --web) in its environment')
            [CompletionResult]::new('--approve-all', '--approve-all', [CompletionResultType]::ParameterName, 'Approve every call that would prompt (deny rules still deny)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Deny every call that would prompt (for CI)')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt (automatic when there is no controlling terminal)')
            [CompletionResult]::new('--pty', '--pty', [CompletionResultType]::ParameterName, 'Run the agent on a pseudo-terminal; the protocol moves to $GATE_SOCKET')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No one-line notice on stderr for each denied call')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No one-line notice on stderr for each denied call')
            [CompletionResult]::new('--web-bind-any', '--web-bind-any', [CompletionResultType]::ParameterName, 'Let --web listen on an address other than loopback (anyone who can reach it and has the token can approve)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gate;check' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'Override the policy''s mode')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Activate a skill declared in host.yaml for this check (repeatable)')
            [CompletionResult]::new('--annotations', '--annotations', [CompletionResultType]::ParameterName, 'An MCP tool''s annotations as JSON (readOnlyHint, destructiveHint, ...), as `gate run` reads them from tools/list')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;validate' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;init' {
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite an existing host.yaml')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;approvals' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List stored approvals with their ids and dates')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove one approval by id')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove every stored approval')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gate;approvals;list' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;approvals;revoke' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;approvals;clear' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;approvals;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List stored approvals with their ids and dates')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove one approval by id')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove every stored approval')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gate;approvals;help;list' {
            break
        }
        'gate;approvals;help;revoke' {
            break
        }
        'gate;approvals;help;clear' {
            break
        }
        'gate;approvals;help;help' {
            break
        }
        'gate;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;man' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;hook' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'Override the policy''s mode')
            [CompletionResult]::new('--audit', '--audit', [CompletionResultType]::ParameterName, 'Append one JSON line per decision to PATH')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Deny every call that would prompt')
            [CompletionResult]::new('--approve-all', '--approve-all', [CompletionResultType]::ParameterName, 'Approve every call that would prompt (deny rules still deny)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Add gate''s hook to AGENT''s settings, keeping everything else')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove exactly gate''s hook from AGENT''s settings')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gate;hook;install' {
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'Override the policy''s mode')
            [CompletionResult]::new('--audit', '--audit', [CompletionResultType]::ParameterName, 'Append one JSON line per decision to PATH')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The user''s settings (Claude Code: ~/.claude/settings.json; pi: ~/.pi/agent/extensions/; Gemini CLI: ~/.gemini/settings.json; Codex: $CODEX_HOME/hooks.json, its default)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s settings (Claude Code: .claude/settings.json here, the default; pi: .pi/extensions/; Gemini CLI: .gemini/settings.json, the default; Codex: .codex/hooks.json, loaded only in a project Codex trusts)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Deny every call that would prompt')
            [CompletionResult]::new('--approve-all', '--approve-all', [CompletionResultType]::ParameterName, 'Approve every call that would prompt (deny rules still deny)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gate;hook;uninstall' {
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'Override the policy''s mode')
            [CompletionResult]::new('--audit', '--audit', [CompletionResultType]::ParameterName, 'Append one JSON line per decision to PATH')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file [default: ./host.yaml, else $XDG_CONFIG_HOME/gate/host.yaml, else built-in]')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The user''s settings (Claude Code: ~/.claude/settings.json; pi: ~/.pi/agent/extensions/; Gemini CLI: ~/.gemini/settings.json; Codex: $CODEX_HOME/hooks.json, its default)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s settings (Claude Code: .claude/settings.json here, the default; pi: .pi/extensions/; Gemini CLI: .gemini/settings.json, the default; Codex: .codex/hooks.json, loaded only in a project Codex trusts)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Deny every call that would prompt')
            [CompletionResult]::new('--approve-all', '--approve-all', [CompletionResultType]::ParameterName, 'Approve every call that would prompt (deny rules still deny)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'gate;hook;help' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Add gate''s hook to AGENT''s settings, keeping everything else')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove exactly gate''s hook from AGENT''s settings')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gate;hook;help;install' {
            break
        }
        'gate;hook;help;uninstall' {
            break
        }
        'gate;hook;help;help' {
            break
        }
        'gate;demo' {
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt, even at a terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;__demo-agent' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'gate;help' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Supervise an agent: decide each tool request it sends, answer on its stdin')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Decide one call offline and explain which layer and rule decided it')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Parse the policy, report every error with line:column, run its `tests:`')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a commented host.yaml in the current directory')
            [CompletionResult]::new('approvals', 'approvals', [CompletionResultType]::ParameterValue, 'Show and remove persisted "always" approvals (.gate/approvals.yaml beside host.yaml)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a completion script for SHELL')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page (roff): gate(1), a subcommand''s (`gate man run`), or host.yaml(5)')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'One decision as an agent''s own hook, or add/remove gate''s hook in its settings')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Run a scripted demo agent under gate and show the whole flow')
            [CompletionResult]::new('__demo-agent', '__demo-agent', [CompletionResultType]::ParameterValue, 'The demo''s scripted agent (run by `gate demo`; not for direct use)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'gate;help;run' {
            break
        }
        'gate;help;check' {
            break
        }
        'gate;help;validate' {
            break
        }
        'gate;help;init' {
            break
        }
        'gate;help;approvals' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List stored approvals with their ids and dates')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Remove one approval by id')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove every stored approval')
            break
        }
        'gate;help;approvals;list' {
            break
        }
        'gate;help;approvals;revoke' {
            break
        }
        'gate;help;approvals;clear' {
            break
        }
        'gate;help;completions' {
            break
        }
        'gate;help;man' {
            break
        }
        'gate;help;hook' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Add gate''s hook to AGENT''s settings, keeping everything else')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove exactly gate''s hook from AGENT''s settings')
            break
        }
        'gate;help;hook;install' {
            break
        }
        'gate;help;hook;uninstall' {
            break
        }
        'gate;help;demo' {
            break
        }
        'gate;help;__demo-agent' {
            break
        }
        'gate;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
