//! The tables only "approve for session" and "approve always" use (SPEC 3.6): how many words
//! name a command (the arity table), and the prefixes never stored wholesale. Beside
//! `suggest.rs`, their one user; no decision reads them. Pure data and lookups.

/// How many words make "the command" for an "always" pattern (opencode's arity table):
/// `git checkout main` is `git checkout`, `npm run build` is `npm run build`.
#[rustfmt::skip]
static ARITY: &[(&str, usize)] = &[
    ("git", 2), ("npm", 2), ("pnpm", 2), ("yarn", 2), ("bun", 2), ("cargo", 2), ("docker", 2), ("kubectl", 2),
    ("go", 2), ("pip", 2), ("pip3", 2), ("uv", 2), ("poetry", 2), ("make", 2), ("gh", 3), ("brew", 2), ("apt", 2),
    ("apt-get", 2), ("systemctl", 2), ("terraform", 2), ("helm", 2), ("rustup", 2), ("dotnet", 2), ("mvn", 2),
    ("gradle", 2), ("composer", 2), ("bundle", 2), ("rails", 2), ("mix", 2), ("deno", 2),
    ("npm run", 3), ("pnpm run", 3), ("yarn run", 3), ("bun run", 3), ("docker compose", 3), ("git config", 3),
    ("git remote", 3), ("git stash", 3), ("cargo run", 2), ("kubectl config", 3), ("gh pr", 3), ("gh issue", 3),
];

/// The number of leading words of `words` that name the command.
pub fn arity_prefix_len(words: &[&str]) -> usize {
    if words.is_empty() {
        return 0;
    }
    // The longest table entry that prefixes the command decides; unknown programs are 1.
    let mut best = (0, 1);
    for (prefix, n) in ARITY {
        let p: Vec<&str> = prefix.split(' ').collect();
        if words.len() >= p.len() && words[..p.len()] == p[..] && p.len() > best.0 {
            best = (p.len(), *n);
        }
    }
    // Only count words that are not options: `git -v` is `git`.
    let n = words.iter().take(best.1).take_while(|w| !w.starts_with('-')).count();
    n.max(1)
}

/// Prefixes that an "always" (or session) approval may never grant wholesale: they run
/// arbitrary code or change privileges. For these only the exact command is stored.
pub static BANNED_PREFIXES: &[&str] = &[
    "python",
    "python2",
    "python3",
    "pypy",
    "node",
    "deno",
    "bun",
    "ruby",
    "perl",
    "php",
    "lua",
    "java",
    "osascript",
    "bash",
    "sh",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "pwsh",
    "powershell",
    "cmd",
    "eval",
    "exec",
    "source",
    ".",
    "sudo",
    "doas",
    "su",
    "env",
    "xargs",
    "nohup",
    "nice",
    "timeout",
    "time",
    "command",
    "builtin",
    "stdbuf",
    "watch",
    "git",
    "npx",
    "pnpx",
    "bunx",
    "uvx",
    "ssh",
    "scp",
    "rsync",
    "docker",
    "kubectl",
    "find",
    "awk",
    "gawk",
    "sed",
    "make",
    "npm run",
    "cargo run",
    "chmod",
    "chown",
    "rm",
    "dd",
    "curl",
    "wget",
];

/// Whether a pattern prefix (`words`, the words before `*`) is banned from being stored.
pub fn is_banned_prefix(words: &[&str]) -> bool {
    let joined = words.join(" ");
    BANNED_PREFIXES.iter().any(|b| *b == joined || (words.len() == 1 && words[0] == *b))
        || words.first().is_some_and(|w| w.starts_with("python"))
}
