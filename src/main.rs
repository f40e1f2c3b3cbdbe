//! The `gate` binary: parse arguments, call into the library, map errors to exit codes.

use clap::Parser;
use gate::cli::{Cli, Command};

fn main() {
    // `gate hook pi` with no options runs once per tool call of pi: it skips building the
    // whole command line (clap), which is most of gate's own start-up.
    {
        let mut args = std::env::args_os().skip(1);
        if let (Some(a), Some(b), None) = (args.next(), args.next(), args.next()) {
            if a == "hook" && b == "pi" {
                std::process::exit(gate::hook_pi::decide(&Default::default()));
            }
        }
    }
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let parsed = match gate::cli::parse_per_call(&argv) {
        Some(command) => Ok(Cli { command }),
        None => Cli::try_parse_from(&argv),
    };
    let cli = match parsed {
        Ok(cli) => cli,
        Err(mut e) => {
            if let Some(tip) = gate::commands::usage_tip(&argv, &e) {
                use clap::error::{ContextKind, ContextValue};
                e.insert(ContextKind::Suggested, ContextValue::StyledStrs(vec![tip.into()]));
            }
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    let result = match &cli.command {
        Command::Run(args) => gate::supervise::run(args),
        Command::Check(args) => gate::commands::check(args),
        Command::Validate(args) => gate::commands::validate(args),
        Command::Init { force } => gate::commands::init(*force),
        Command::Approvals { config, action } => gate::commands::approvals(config, action),
        Command::Completions { shell } => gate::commands::completions(*shell),
        Command::Man { page } => gate::commands::man(page.as_deref()),
        Command::Hook(h) => match (&h.action, &h.decide) {
            (Some(gate::cli::HookAction::Install(a)), _) => gate::hook::install(a),
            (Some(gate::cli::HookAction::Uninstall(a)), _) => gate::hook::uninstall(a),
            (None, args) => gate::hook::run(args),
        },
        Command::Demo(args) => gate::demo::run(args),
        Command::DemoAgent => gate::demo::agent(),
    };
    // What a lingering thread still holds is not dropped by `exit`: files gate made go now.
    gate::approve::web::remove_url_files();
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("gate: {e:#}");
            // Errors that reach here happened before any agent started or outside `run`.
            std::process::exit(if matches!(cli.command, Command::Run(_)) { 1 } else { 2 });
        }
    }
}
