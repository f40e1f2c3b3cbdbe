//! Issue "Fail closed by construction", classes 3, 4, 6, 7, 8 and 9, and the round 2 items they
//! share (5: reads git does not show, 6: programs that write a file named in their
//! arguments). Regression cases go through the real binary (`gate check --json`), named after
//! what they show; each class also has a property test that generates variants, several with
//! bash itself as the oracle: what gate allows, bash must not turn into the denied command.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use std::path::Path;
use std::process::Command;

use gate::policy::{Call, Context, Policy, Verdict};
use proptest::prelude::*;
use serde_json::{json, Value};

const POLICY: &str =
    "version: 1\npermissions:\n  deny: [ \"Bash(rm *)\", \"Bash(touch pwned)\", \"Bash(git reset *)\", \
                      \"Write(**/.env*)\", \"Read(**/.env)\", \"Read(src/secret.txt)\" ]\n";

fn check(command: &str) -> Value {
    check_with(POLICY, command)
}

/// `gate check --json` of one shell command, in a fresh workspace holding `policy`.
fn check_with(policy: &str, command: &str) -> Value {
    check_common::check_command(policy, command)
}

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

fn policy_at(dir: &Path) -> Policy {
    check_common::policy_at(POLICY, dir)
}

use check_common::decide_command as decide;

fn bash() -> &'static str {
    // bash is part of every machine the tests run on (Debian's essential set); a missing one
    // must fail the test, not skip it.
    "bash"
}

/// Run `script` with bash in `dir` (HOME outside it, no inherited OLDPWD); its stdout.
fn run_bash(dir: &Path, script: &str) -> String {
    let out = Command::new(bash())
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("HOME", "/nonexistent-home")
        .env_remove("OLDPWD")
        .env_remove("CDPATH")
        .output()
        .expect("bash runs");
    String::from_utf8_lossy(&out.stdout).to_string()
}

// ---- class 3: arithmetic and subscripts ----

/// Integer-attribute variables and the ways bash assigns them: each template, with each
/// spelling of a value whose subscript runs `touch pwned`.
const CLASS3_TEMPLATES: &[&str] = &[
    "OPTIND=V",
    "RANDOM=V",
    "SRANDOM=V",
    "declare -i n; n=V",
    "typeset -i n; n+=V",
    "f(){ local -i n; n=V; }; f",
    "declare -i n; export n=V",
    "declare -i n; readonly n=V",
    "declare -i n=V",
    "for OPTIND in V; do :; done",
    "declare -i n; for n in V; do :; done",
    "read OPTIND <<< V",
    "printf -v OPTIND %s V",
    "declare -i n; : ${n:=V}",
    "declare -ai n; n=(V)",
    "declare -i n; mapfile n <<< V",
    "declare -i n; declare n=V",
];

const CLASS3_VALUES: &[&str] = &[
    "'a[$(touch pwned)]'",
    "\"a[\\$(touch pwned)]\"",
    "$'a[$(touch pwned)]'",
    "a\\[\\$\\(touch\\ pwned\\)\\]",
    "'a[`touch pwned`]'",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Every generated form really runs `touch pwned` in bash, and gate denies it by the rule
    /// on `touch pwned`: the arithmetic text is code.
    #[test]
    fn class3_integer_variables_evaluate_what_is_assigned(t in 0..CLASS3_TEMPLATES.len(), v in 0..CLASS3_VALUES.len()) {
        let cmd = CLASS3_TEMPLATES[t].replace('V', CLASS3_VALUES[v]);
        let dir = tempfile::tempdir().unwrap();
        run_bash(dir.path(), &cmd);
        prop_assert!(dir.path().join("pwned").exists(), "the form does not run code in bash: {cmd}");
        prop_assert_eq!(decide(&policy_at(dir.path()), &cmd), Verdict::Deny, "{}", cmd);
    }
}

#[test]
fn class3_compound_array_subscript_in_a_quoted_local_is_code() {
    assert_all("deny", &["f(){ local -a 'x=([$(rm -rf x)]=1)'; }; f", "declare -a 'x=([$(rm x)]=1)'"]);
    // Not a literal: asked.
    assert_all("ask", &["declare -a m=([i]=1)", "x=${arr[i]}"]);
}

#[test]
fn class3_run_time_text_into_an_integer_variable_is_asked() {
    assert_all("ask", &["read OPTIND", "OPTIND=$1", "declare -i n; getopts a: n", "mapfile -t RANDOM"]);
}

#[test]
fn class3_plain_numbers_and_literal_keys_are_allowed() {
    assert_all(
        "allow",
        &[
            "OPTIND=1",
            "RANDOM=42",
            "declare -i n; n=5; echo $n",
            "for OPTIND in 1 2; do :; done",
            "declare -A m=([key]=1)",
            "declare -a m=([0]=1 [1]=2)",
            "read -r LINENO",
        ],
    );
}

// ---- class 4: code stored to run later ----

/// Ways to store code that runs later or elsewhere; `A` is the action, shell-quoted.
const CLASS4_FORMS: &[&str] = &[
    "trap A EXIT",
    "trap -- A EXIT",
    "trap A ERR DEBUG",
    "complete -C A ls",
    "compgen -C A ls",
    "git -c alias.st=!A st",
    "git -c core.pager=A log",
    "git -c core.sshCommand=A fetch",
    "git config alias.x !A",
    "git config --global core.pager A",
    "script -qc A /dev/null",
    "flock -c A lockfile",
    "watch A",
];

const CLASS4_ACTIONS: &[&str] = &["rm -rf x", "\\rm -rf x", "/bin/rm -rf x", "command rm x", "env rm x", "cd /; rm x"];

use check_common::shell_quote;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn class4_stored_code_is_decided_as_if_it_ran(f in 0..CLASS4_FORMS.len(), a in 0..CLASS4_ACTIONS.len()) {
        let action = CLASS4_ACTIONS[a];
        let form = CLASS4_FORMS[f];
        // `!A` quotes the bang with the action.
        let cmd = if form.contains("!A") {
            form.replace("!A", &shell_quote(&format!("!{action}")))
        } else {
            form.replace('A', &shell_quote(action))
        };
        let dir = tempfile::tempdir().unwrap();
        prop_assert_eq!(decide(&policy_at(dir.path()), &cmd), Verdict::Deny, "{}", cmd);
    }
}

#[test]
fn class4_awk_and_sed_commands_are_decided() {
    assert_all(
        "deny",
        &[
            "awk 'BEGIN{system(\"rm -rf x\")}'",
            "awk '{print | \"rm x\"}' f",
            "awk 'BEGIN{\"rm x\" | getline}'",
            "sed '1e rm -rf x' f",
            "git -c alias.st='reset --hard' st HEAD",
            // Run-time code made of the call's own text, which holds `rm` (red team 43).
            "sed 's/.*/rm x/e' f",
        ],
    );
    assert_all("ask", &["complete -F f ls", "trap \"$x\" EXIT", "awk '{system($0)}' f", "sed 's/.*/ls x/e' f"]);
}

#[test]
fn class9_trap_with_an_allowed_action_and_listings_are_allowed() {
    assert_all(
        "allow",
        &[
            "trap 'echo bye' EXIT",
            "trap - EXIT",
            "trap -p",
            "trap -l",
            "trap '' INT",
            "trap 'echo done' EXIT; ls",
            "compgen -W 'a b c' a",
            "complete -p",
            "files=(src/*); echo ${#files[@]}",
        ],
    );
}

// ---- class 6 and item 6: files named in arguments are written ----

#[test]
fn class6_output_and_log_options_are_writes() {
    assert_all(
        "deny",
        &[
            "curl --trace .env https://a.example",
            "curl -D .env https://a.example",
            "curl --cookie-jar=.env https://a.example",
            "curl --stderr .env https://a.example",
            "wget -o .env https://a.example",
            "wget -a.env https://a.example",
            "wget --append-output=.env https://a.example",
            "cargo test -- --logfile .env",
            "cargo test -- --logfile=.env",
            "pytest --junitxml=.env",
            "pytest --junit-xml .env",
            "python3 -m pytest --junitxml .env",
            "go test -coverprofile=.env ./...",
            "go test -cpuprofile .env ./...",
            "npm test -- --outputFile=.env",
            "git restore .env",
            "git checkout -- .env",
            "git checkout HEAD -- .env",
            "git checkout HEAD~3 .env",
            "git rm .env",
        ],
    );
    // Outside the workspace: asked, even where the command itself is fine.
    assert_all("ask", &["go test -coverprofile /tmp/c ./...", "cargo test --target-dir=/tmp/t"]);
}

#[test]
fn item6_programs_that_write_a_file_named_in_their_arguments() {
    assert_all(
        "deny",
        &[
            "find . -fprint .env",
            "find . -fprint0 .env -name a",
            "find . -fls .env",
            "find . -fprintf .env '%p'",
            "xxd -r dump .env",
            "xxd src/a.rs .env",
            "split -b 1 src/a.rs .env",
            "csplit src/a.rs 1 -f .env",
            "tar xf a.tar .env",
            "tar -x -f a.tar -- .env",
            "tar czf .env src",
            "patch -o .env src/a.rs p.diff",
            "patch .env p.diff",
            "uniq src/a.rs .env",
            "awk '{print > \".env\"}' src/a.rs",
            "awk '{print >> \".env\"}' src/a.rs",
            "sed -n '1w .env' src/a.rs",
            "sed 's/a/b/w .env' src/a.rs",
            "cp -t . src/.env",
            "mv -tsrc .env",
            "cp src/x --target-directory=. .env",
            "gzip .env",
        ],
    );
    assert_all("ask", &["cp -t /etc src/a.rs", "tar -xf a.tar -C /etc", "unzip a.zip -d /etc"]);
    // What only reads stays allowed: sed that prints, uniq to stdout.
    assert_all("allow", &["sed 's/a/b/' src/a.rs", "uniq src/a.rs", "sort -to src/a.rs"]);
}

// ---- class 7 and item 5: git ----

#[test]
fn class7_git_subcommands_that_edit_do_not_ride_on_an_allowed_parent() {
    assert_all(
        "ask",
        &["git config edit", "git config set user.name x", "git config --edit", "git foo", "git branch -D x"],
    );
    // A listing of every level prints the user's ~/.gitconfig, which can hold credentials (red
    // team 40): a read outside the workspace, as `cat ~/.gitconfig` is.
    assert_all("ask", &["git config list", "git config --list", "git config --global --list", "git config -l"]);
    assert_all(
        "allow",
        &[
            "git config list --local",
            "git config get user.name",
            "git branch --merged main",
            "git branch -l 'feat*'",
            "git branch -a --contains abc123",
            "git reflog",
            "git worktree list --porcelain",
            "git notes list",
            "git stash list",
        ],
    );
}

/// git's read-only subcommands read their options from tables generated from git's manuals
/// (`tools/git_options.py`): an option gate cannot place is not modelled, as for any tabled
/// program; every spelling people use every day is placed.
#[test]
fn class7_git_read_subcommands_place_every_option_in_a_table() {
    for (command, why) in [
        ("git log --frobnicate", "git-log: option --frobnicate not in its table"),
        ("git diff --no-such-thing HEAD", "git-diff: option --no-such-thing not in its table"),
        ("git -C src show --bogus", "git-show: option --bogus not in its table"),
        ("git shortlog -sz", "git-shortlog: option -z not in its table"),
        ("git status --porcelain -Q", "git-status: option -Q not in its table"),
        ("git blame -L", "git-blame: option -L is missing its value"),
    ] {
        let v = check(command);
        assert_eq!(v["decision"], "ask", "{command}: {v}");
        assert!(v.to_string().contains(why), "{command}: wants {why:?} in {v}");
    }
    assert_all(
        "allow",
        &[
            "git log --oneline -n 5",
            "git log -5 --stat --no-merges",
            "git log --graph --decorate --all --oneline",
            "git log -p -S needle -- src",
            "git log --since=2.weeks --author=bob --format='%h %s'",
            "git log --pretty=format:%h -1 --date=iso",
            "git log -G'fn main' --follow -- src/a.rs",
            "git shortlog -sn",
            "git shortlog -s -n -e --all",
            "git diff --cached --stat",
            "git diff --staged --name-only",
            "git diff -U5 --word-diff HEAD~1 -- src",
            "git diff --no-color --ignore-all-space",
            "git show -s --format=%H HEAD",
            "git show --stat HEAD~2",
            "git blame -L 1,5 src/a.rs",
            "git blame -w -C -M src/a.rs",
            "git grep -n -i needle -- src",
            "git grep -e needle -C2 --count",
            "git status -sb",
            "git status --porcelain=v1 -uno",
            "git rev-parse --abbrev-ref HEAD",
            "git rev-parse --short=8 HEAD",
            "git ls-files -z -m -o --exclude-standard",
            "git ls-tree -r --name-only HEAD",
            "git describe --tags --always --dirty",
            "git cat-file -p HEAD",
            "git for-each-ref --sort=-committerdate --format='%(refname:short)' refs/heads",
            "git merge-base --is-ancestor HEAD HEAD",
            "git rev-list --count HEAD",
        ],
    );
}

#[test]
fn item5_git_operands_are_read_like_cats() {
    assert_all(
        "ask",
        &[
            "git diff --no-index /etc/passwd /dev/null",
            "git diff --no-index ~/.ssh/id_rsa x",
            "git blame --contents /etc/shadow README",
            "git grep --no-index secret ~/.aws",
            "git log -- /etc/passwd",
        ],
    );
    assert_all("deny", &["git diff --no-index .env /dev/null", "git log -p -- .env"]);
    assert_all("allow", &["git diff HEAD~1 -- src/a.rs", "git log -n 5 --oneline", "git diff main..feature"]);
}

// ---- class 8: the directory stack ----

#[test]
fn class8_directory_stack_is_followed() {
    // Back into the workspace: followed, so what is read is known.
    assert_all(
        "allow",
        &[
            "cd src && cd - && cat README",
            "pushd src && cat a.rs && popd && cat README",
            "pushd src && pushd && cat README",
            "cat ~+/README",
            "dirs -c; cat README",
        ],
    );
    // Into src, where secret.txt is denied: the read lands there.
    assert_all(
        "deny",
        &[
            "pushd src >/dev/null && cat secret.txt",
            "cd src && cd .. && cd - && cat secret.txt",
            "cd src || exit 1; cat secret.txt",
            "cd src || { echo no src; exit 1; }; cat secret.txt",
            "set -e; cd src; cat secret.txt",
        ],
    );
    // Where gate cannot follow: later relative paths are not allowed.
    assert_all(
        "ask",
        &[
            "cd -; cat README",
            "cat ~-/README",
            // A bare `popd` reaches below what the text pushed: a stack an earlier command
            // may have left (red team 41; it was held allowed, the stack empty at the start).
            "popd; cat README",
            "pushd src && DIRSTACK[1]=/etc && popd && cat passwd",
            "cd \"$OLDPWD\"; cat README",
            "cat ~+1/README",
        ],
    );
}

#[test]
fn class8_a_cd_that_can_fail_leaves_either_directory() {
    // bash goes on where it was when `src` is missing: the read may be `secret.txt` or
    // `src/secret.txt`. Both are decided: one is denied, so the call is.
    assert_all("deny", &["cd src; cat secret.txt"]);
    // Both readings allowed: allowed (this asked before gate walked both directories; `cd src
    // || true` asked before red team 45).
    assert_all("allow", &["cd src; cat a.rs", "cd src; cd docs; cat a.rs", "cd src || true; cat x"]);
    // `cd src && A; B`: B runs in src or, the `cd` failing, where it was; both are decided
    // (this asked before red team 55), and one is denied.
    assert_all("deny", &["cd src && cat a.rs; cat secret.txt"]);
    // More than one way a list can stop part-way, or a fifth `cd` that may fail: unknown.
    assert_all("ask", &["cd src && cd docs && cat a.rs; cat x", "cd a; cd b; cd c; cd d; cd e; cat x"]);
    // If `src` is missing, `cd ..` leaves the workspace; where it is a directory when the
    // call runs, the `cd` does not fail (red team 83, see redteam83.rs).
    assert_all("ask", &["cd nosuch; cd ..; cat a.rs"]);
    assert_all("allow", &["cd src; cd ..; cat a.rs"]);
}

const CLASS8_STEPS: &[&str] =
    &["cd src", "cd ..", "cd -", "pushd src", "pushd .", "pushd", "popd", "popd -n", "dirs -c", "cd docs", "cd"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// bash is the oracle: after any sequence of directory changes, a read of
    /// `secret.txt` (denied only in `src`) is denied exactly when bash is in src, and never
    /// allowed when bash is outside the workspace or in src.
    #[test]
    fn class8_reads_land_where_bash_lands(steps in proptest::collection::vec(0..CLASS8_STEPS.len(), 1..6)) {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(ws.join("src")).unwrap();
        std::fs::create_dir_all(ws.join("docs")).unwrap();
        let seq: Vec<&str> = steps.iter().map(|k| CLASS8_STEPS[*k]).collect();
        let script = format!("{} >/dev/null 2>&1; true", seq.join(" >/dev/null 2>&1; "));
        let pwd = run_bash(&ws, &format!("{script}; pwd"));
        let pwd = pwd.trim_end();
        let cmd = format!("{script}; cat secret.txt");
        let d = decide(&policy_at(&ws), &cmd);
        let in_src = Path::new(pwd) == ws.join("src");
        let inside = Path::new(pwd).starts_with(&ws);
        if in_src || !inside {
            prop_assert!(d != Verdict::Allow, "{cmd}: bash is in {pwd}, gate allowed");
        }
        // gate decides every directory a `cd` that may fail can leave (it cannot see which
        // exist): it denies only where some step could go into src.
        if d == Verdict::Deny {
            prop_assert!(in_src || seq.iter().any(|s| s.ends_with("src") || *s == "cd -" || s.starts_with("pushd") || s.starts_with("popd")),
                "{cmd}: gate denied as if in src, and no step goes there; bash is in {pwd}");
        }
    }
}

// ---- globs: what a glob can expand to is decided by the rules it could meet ----

#[test]
fn glob_that_can_expand_to_a_denied_path_is_denied() {
    let policy =
        "version: 1\npermissions:\n  deny: [ \"Read(**/*.pem)\", \"Read(src/secret.txt)\", \"Read(**/.env)\" ]\n";
    let decide = |c: &str| check_with(policy, c)["decision"].as_str().unwrap_or("?").to_string();
    for c in ["cat *.pem", "cat k.p?m", "cat *", "head src/*", "cat src/s*", "cat */secret.txt", "cat certs/*"] {
        assert_eq!(decide(c), "deny", "{c}");
    }
    // bash's `*` does not match `.env`; `*.rs` cannot be a `.pem`.
    for c in ["cat src/*.rs", "cat *.md", "cat docs/*.md"] {
        assert_ne!(decide(c), "deny", "{c}");
    }
    assert_eq!(decide("cat src/*.rs"), "allow");
}

// ---- property tests for the classes whose regression cases live elsewhere ----

fn decide_call(p: &Policy, tool: &str, args: Value) -> Verdict {
    p.decide(&Call::new(tool, args), &Context::default()).decision
}

/// Wrappers that hand their command on unchanged.
const PREFIXES: &[&str] = &["", "env ", "timeout 5 ", "nice -n5 ", "command ", "nohup ", "stdbuf -oL "];

/// Class 6: every spelling of an option whose value is a file written, under any wrapper.
const CLASS6: &[(&str, &[&str])] = &[
    (
        "curl {} https://a.example",
        &[
            "--trace .env",
            "--trace=.env",
            "--trace-ascii .env",
            "-D .env",
            "-D.env",
            "--dump-header=.env",
            "-c .env",
            "--cookie-jar .env",
            "--stderr .env",
            "-o .env",
        ],
    ),
    (
        "wget {} https://a.example",
        &[
            "-o .env",
            "-o.env",
            "--output-file=.env",
            "-a .env",
            "-a.env",
            "--append-output .env",
            "-O .env",
            "--save-cookies .env",
        ],
    ),
    ("cargo test {}", &["-- --logfile .env", "-- --logfile=.env", "--target-dir .env", "--target-dir=.env"]),
    (
        "pytest {}",
        &["--junitxml=.env", "--junitxml .env", "--junit-xml=.env", "--basetemp .env", "--cov-report=xml:.env"],
    ),
    (
        "go test {} ./...",
        &[
            "-coverprofile=.env",
            "-coverprofile .env",
            "--coverprofile=.env",
            "-cpuprofile .env",
            "-memprofile=.env",
            "-trace .env",
            "-o .env",
        ],
    ),
    ("sort {} src/a.rs", &["-o .env", "-o.env", "--output=.env", "--out .env", "-ro.env", "-r -o .env"]),
    ("git log {}", &["--output=.env", "--output .env", "--out=.env"]),
    ("find . {}", &["-fprint .env", "-fls .env", "-fprint0 .env", "-fprintf .env %p"]),
    ("patch {} src/a.rs p.diff", &["-o .env", "-o.env", "--output=.env"]),
    ("tree {}", &["-o .env", "-o.env"]),
    ("npm test {}", &["-- --outputFile=.env", "-- --outputFile .env"]),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn class6_every_spelling_of_an_output_option_is_a_write(p in 0..PREFIXES.len(), t in 0..CLASS6.len(), k in 0..16usize) {
        let (template, spellings) = CLASS6[t];
        let cmd = format!("{}{}", PREFIXES[p], template.replace("{}", spellings[k % spellings.len()]));
        let dir = tempfile::tempdir().unwrap();
        prop_assert_eq!(decide(&policy_at(dir.path()), &cmd), Verdict::Deny, "{}", cmd);
    }
}

/// Class 7: sub-subcommands that edit, after any harmless global option.
const GIT_GLOBALS: &[&str] = &["", "--no-pager ", "-P ", "-C src "];
const GIT_EDITS: &[&str] = &[
    "config edit",
    "config --edit",
    "config -e",
    "config --global --edit",
    "config set user.name x",
    "config unset user.name",
    "config rename-section a b",
    "config remove-section a",
    "config --add a.b c",
    "config --unset a.b",
    "config user.name x",
    "branch x",
    "branch -D x",
    "branch -m a b",
    "branch --edit-description",
    "tag v1",
    "tag -d v1",
    "stash",
    "stash drop",
    "stash pop",
    "remote add o u",
    "remote remove o",
    "worktree add ../x",
    "worktree remove x",
    "notes add -m x",
    "notes edit",
    "reflog expire --all",
    "reflog delete HEAD@{1}",
    "submodule update",
    "foo",
    "checkout .",
    "switch main",
    "commit -m x",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn class7_editing_git_forms_are_never_allowed(g in 0..GIT_GLOBALS.len(), e in 0..GIT_EDITS.len()) {
        let cmd = format!("git {}{}", GIT_GLOBALS[g], GIT_EDITS[e]);
        let dir = tempfile::tempdir().unwrap();
        prop_assert_ne!(decide(&policy_at(dir.path()), &cmd), Verdict::Allow, "{}", cmd);
    }
}

/// Class 9: what only lists, and traps whose action is allowed, are allowed.
const CLASS9: &[&str] = &[
    "git branch --merged main",
    "git branch -l 'feat*'",
    "git branch --no-merged",
    "git branch -a -v",
    "git branch --contains HEAD~2",
    "git reflog",
    "git worktree list",
    "git worktree list --porcelain",
    "git notes list",
    "git stash list",
    "git tag -l 'v1*'",
    "git config list --local",
    "git config get user.email",
    "trap 'echo bye' EXIT",
    "trap -- 'printf done' EXIT INT",
    "trap - EXIT",
    "trap -p",
    "trap '' INT",
    "files=(src/*); echo ${#files[@]}",
    "sed 's/a/b/' README",
    "sed -n '/x/p' README",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn class9_listings_and_allowed_traps_are_allowed(a in 0..CLASS9.len(), b in 0..CLASS9.len()) {
        let cmd = format!("{} && {}", CLASS9[a], CLASS9[b]);
        let dir = tempfile::tempdir().unwrap();
        prop_assert_eq!(decide(&policy_at(dir.path()), &cmd), Verdict::Allow, "{}", cmd);
    }
}

/// Class 5: a path outside the workspace in any path-like field of any tool, safe list
/// included, is never allowed.
const CLASS5_TOOLS: &[&str] = &["Read", "Grep", "Glob", "LS", "Write", "Edit", "mcp__fs__read_file", "mcp__x__y"];
const CLASS5_FIELDS: &[&str] = &[
    "path",
    "file_path",
    "directory",
    "dir",
    "cwd",
    "notebook_path",
    "source",
    "destination",
    "output_dir",
    "config_file",
    "target_path",
    "root",
];
const OUTSIDE: &[&str] = &["/etc/passwd", "~/.ssh/id_rsa", "../x", "src/../../x", "/tmp"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn class5_outside_paths_in_any_field_are_not_allowed(t in 0..CLASS5_TOOLS.len(), f in 0..CLASS5_FIELDS.len(), o in 0..OUTSIDE.len(), listed in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let path = OUTSIDE[o];
        let value = if listed { json!(["src/a", path]) } else { json!(path) };
        let field = if listed { "paths" } else { CLASS5_FIELDS[f] };
        let args = json!({ field: value, "pattern": "x", "content": "y", "old_string": "a", "new_string": "b" });
        let d = decide_call(&policy_at(dir.path()), CLASS5_TOOLS[t], args.clone());
        prop_assert_ne!(d, Verdict::Allow, "{} {}", CLASS5_TOOLS[t], args);
    }
}

/// Class 2: `--version` is a shortcut only for programs verified to exit on it.
#[test]
fn class2_version_is_not_a_shortcut_for_interpreters() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy_at(dir.path());
    // (npm left this list in session 13: checked with npm 11, `--version` exits before any
    // script, and `node-options`, `script-shell`, `logs-dir` in .npmrc change nothing; npx,
    // npm's `exec`, in session 23, checked the same way.)
    for prog in ["tclsh", "wish", "expect", "php", "lua", "Rscript", "cargo", "./x"] {
        let cmd = format!("{prog} --version");
        assert_ne!(decide(&p, &cmd), Verdict::Allow, "{cmd}");
    }
}

// ---- variables gate follows: bash as the oracle ----

/// Pieces of scripts that assign `f` and `g`, loop, branch and read with `cat`.
fn binding_script() -> impl Strategy<Value = String> {
    let value = prop_oneof![Just("src/a.rs"), Just("OUT"), Just("src/secret.txt"), Just("'x y'"), Just("src/*.rs")];
    let leaf = (0..9usize, value.clone(), value).prop_map(|(k, v, w)| match k {
        0 => format!("f={v}"),
        1 => format!("g={w}"),
        2 => "g=$f".to_string(),
        3 => "f=\"$g\"".to_string(),
        4 => "cat \"$f\"".to_string(),
        5 => "cat \"$g\"".to_string(),
        6 => "cat $f".to_string(),
        7 => format!("f={v} cat \"$f\""),
        _ => "break".to_string(),
    });
    leaf.prop_recursive(3, 12, 3, |inner| {
        let v = prop_oneof![Just("src/a.rs"), Just("OUT"), Just("src/secret.txt"), Just("src/*.rs")];
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a}; {b}")),
            (v.clone(), v, inner.clone()).prop_map(|(a, b, s)| format!("for f in {a} {b}; do {s}; done")),
            (inner.clone(), inner.clone(), any::<bool>())
                .prop_map(|(a, b, c)| format!("if {c}; then {a}; else {b}; fi")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("false && {a} || {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("true || {a}; {b}")),
            inner.clone().prop_map(|a| format!("( {a} )")),
            inner.clone().prop_map(|a| format!("{a} | true")),
            inner.prop_map(|a| format!("for i in 1 2; do {a}; done")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// Whatever the script does to `f` and `g`, when gate allows it, every file bash's `cat`
    /// is given lies inside the workspace and is not the denied `src/secret.txt`.
    #[test]
    fn bindings_allow_only_what_bash_reads_safely(script in binding_script()) {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(ws.join("src")).unwrap();
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(ws.join("src/a.rs"), "").unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "").unwrap();
        let log = dir.path().join("cat.log");
        // A `cat` that records what it was given, first on PATH.
        let fake = format!("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '{}'; done\n", log.display());
        std::fs::write(bin.join("cat"), fake).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(bin.join("cat"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let script = script.replace("OUT", &outside.display().to_string());
        let d = decide(&policy_at(&ws), &script);
        if d == Verdict::Allow {
            let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
            Command::new(bash()).arg("-c").arg(&script).current_dir(&ws).env("PATH", path).output().unwrap();
            let read = std::fs::read_to_string(&log).unwrap_or_default();
            for arg in read.lines() {
                let p = ws.join(arg);
                let p = std::path::absolute(&p).unwrap();
                prop_assert!(p.starts_with(&ws) && !arg.contains("..") , "{script}: cat got {arg}");
                prop_assert!(!arg.ends_with("secret.txt"), "{script}: cat got {arg}");
            }
        }
    }
}

// ---- the oracle red team (strace as the oracle): each mechanism it found ----

#[test]
fn redteam_heredoc_operator_inside_an_expansion_hides_nothing() {
    assert_all(
        "deny",
        &[
            "echo ${x:-<<E}\nrm -f canary\nE",
            ": ${x#<<E}\nrm -rf x\nE",
            "echo ${x:1<<2}\ngit reset --hard\n2",
            "echo ${x:-'}'<<E}\nrm x\nE",
        ],
    );
    assert_all("ask", &["echo \"${x:-<<E}\"\ncat ~/.ssh/id_rsa\nE"]);
    // A real here-document after an expansion is still one.
    assert_all("allow", &["echo ${x:-a} <<E\nrm y\nE", "echo $((1<<2))"]);
}

#[test]
fn redteam_uniq_reads_its_input_and_a_glob_may_be_two_operands() {
    assert_all("ask", &["uniq ~/.ssh/id_rsa", "uniq /???/passwd", "uniq */../../home/secret.txt"]);
    assert_all("deny", &["uniq .e*", "uniq src/a .env"]);
    assert_all("allow", &["uniq src/a.rs", "uniq -c src/a.rs"]);
}

#[test]
fn redteam_a_pattern_that_splits_may_hold_files() {
    assert_all(
        "ask",
        &["x='-h . ../outside/secret.txt'; grep $x", "set -- -f ~/secret.txt; grep $@", "grep --file=$HOME/s -r ."],
    );
    // `head -n$N` with `N='5 /etc/passwd'` is `head -n5 /etc/passwd src/a.rs` (eleventh red
    // team); quoted, the value stays one word.
    assert_all("ask", &["head -n$N src/a.rs", "head -n $N src/a.rs"]);
    assert_all("allow", &["grep -e \"$p\" src/a.rs", "head -n\"$N\" src/a.rs", "head -n \"$N\" src/a.rs"]);
    // Quoted, it is one word, but in the pattern's place one that may start with `-`, an
    // option that reads a file (`--file=/root/.ssh/id_rsa`: red team 40).
    assert_all("ask", &["grep \"$p\" src/a.rs", "grep -rn \"$p\" src"]);
}

#[test]
fn redteam_variables_that_name_files_are_reads() {
    assert_all(
        "ask",
        &["PWD=$HOME; cat ~+/.ssh/id_rsa", "MAGIC=$HOME/.ssh/id_rsa file src/a.rs", "TZ=$HOME/secret.txt date"],
    );
    assert_all("deny", &["MAGIC=./.env file src/a.rs"]);
    assert_all("allow", &["TZ=UTC date", "X=https://a.example/b ls"]);
}

#[test]
fn redteam_abbreviated_long_options_meet_deny_rules() {
    assert_all("deny", &["git reset --ha", "git reset --har HEAD~1"]);
}

#[test]
fn round2_overasks_arithmetic_on_known_numbers_and_awk_that_only_prints() {
    assert_all(
        "allow",
        &[
            "echo $(( $# + 1 ))",
            "echo $(( $? ))",
            "for i in 1 2 3; do echo $((i*2)); done",
            "n=5; echo $((n+1)); echo $((n+2))",
            // Arithmetic assigns numbers, and a failed assignment leaves the old one, also a
            // number (eleventh round: counters were asked).
            "n=5; (( n++ )); echo $((n))",
            "awk '{print $1}' src/a.rs",
            "awk -F: '$3 > 100 {print $1}' src/a.rs",
            "cat x | awk '{s+=$1} END {print s}'",
        ],
    );
    // Values gate does not know stay code: positional parameters, reassigned names, awk that
    // runs or writes.
    assert_all(
        "ask",
        &[
            "echo $(( $1 ))",
            "x=$1; echo $((x+1))",
            "n=a; echo $((n))",
            "awk 'BEGIN{system(\"ls\")}'",
            "awk -f x.awk src/a.rs",
        ],
    );
}

#[test]
fn round2_rule_option_tables_for_find_sed_sort() {
    let policy =
        "version: 1\npermissions:\n  deny: [ \"Bash(sed -i *)\", \"Bash(sort -o *)\", \"Bash(find -delete *)\" ]\n";
    let decide = |c: &str| check_with(policy, c)["decision"].as_str().unwrap_or("?").to_string();
    for c in [
        "sed --in-place s/a/b/ f",
        "sed -ni p f",
        "sed -i.bak s/a/b/ f",
        "sed --in-pl s/a/b/ f",
        "sort --output=x f",
        "sort -ro x f",
        "find . -name x -delete",
    ] {
        assert_eq!(decide(c), "deny", "{c}");
    }
    // find's words stay whole: `-depth -links` is not `-delete`.
    assert_ne!(decide("find . -depth -links 2 -type l"), "deny");
    assert_eq!(decide("zcat src/a.gz"), "allow");
}

#[test]
fn round2_overasks_archive_listings_and_hex_dumps() {
    assert_all(
        "allow",
        &[
            "tar -tf src/a.tar",
            "tar tzf src/a.tgz",
            "tar -tvzf src/a.tgz",
            "tar --list --file=src/a.tar",
            "unzip -l src/a.zip",
            "unzip -Z1 src/a.zip",
            "zipinfo src/a.zip",
            "xxd src/a.bin",
            "xxd -ps src/a.bin",
            "xxd -c16 -s+0x10 src/a.bin",
            "xxd -cols 8 -len 10 src/a.bin",
        ],
    );
    // Extraction, a remote archive (`host:file` runs rsh), a program tar runs, an output
    // file, a reversal, options from the environment, reads outside the workspace.
    assert_all(
        "ask",
        &[
            "tar -xf src/a.tar",
            "tar xf src/a.tar",
            "tar -tf host:a.tar",
            "tar -tf $X",
            "tar -tf src/a.tar --to-command=sh",
            "tar -tf src/a.tar --checkpoint-action=exec=sh",
            "tar -t -I sh -f src/a.tar",
            "tar -tf /etc/a.tar",
            "TAR_OPTIONS=--checkpoint-action=exec=sh tar -tf src/a.tar",
            "unzip src/a.zip",
            "unzip -l src/a.zip -d out",
            "xxd src/a.bin out.txt",
            "xxd -r src/a.hex",
            "xxd $X",
            "xxd /etc/shadow",
        ],
    );
    // The file a dump writes meets the deny rules on writes, however xxd spells its options.
    assert_all("deny", &["xxd -cols 8 -l 10 src/a.bin .env", "tar -tf src/a.tar --index-file=.env"]);
}

#[test]
fn round2_rule_option_tables_for_git_subcommands() {
    let policy = "version: 1\npermissions:\n  deny: [ \"Bash(git push --force *)\", \"Bash(git branch -D *)\", \
                  \"Bash(git clean -f *)\", \"Bash(git checkout -f *)\", \"Bash(git commit -a *)\" ]\n";
    let decide = |c: &str| check_with(policy, c)["decision"].as_str().unwrap_or("?").to_string();
    for c in [
        "git push -f origin main",
        "git push origin main --force",
        "git push --force=x origin",
        "git push -uf origin main",
        // A `+` refspec is a forced update.
        "git push origin +main",
        "git -C . push --for origin",
        // `branch -D` is `--delete --force`, however it is spelled.
        "git branch -D x",
        "git branch --delete --force x",
        "git branch -df x",
        "git clean -xdf",
        "git clean --force -d",
        "git checkout --force main",
        "git checkout -qf main",
        "git commit --all -m x",
    ] {
        assert_eq!(decide(c), "deny", "{c}");
    }
    // Letters mean what the subcommand says: `fetch -a` is `--append`, not `--all`; a plain
    // `branch -d` deletes only merged branches.
    for c in ["git branch -d x", "git fetch -a origin", "git push --force-with-lease origin main", "git clean -n"] {
        assert_ne!(decide(c), "deny", "{c}");
    }
}

/// The second red team's findings on the listings made read-only (each ran for real as
/// `nobody` with GNU tar 1.34, xxd and UnZip 6.00): none is allowed any more.
#[test]
fn redteam2_listings_that_write_run_or_read_denied_paths_are_not_allowed() {
    for c in [
        // 1. A multi-volume listing prompts for the next volume on stdin, and `!` runs a shell.
        "tar -tM -f /dev/null",
        // 2. A `-T` list may hold options (`--files-from=/etc/passwd`).
        "tar -tf src/a.tar --files-from=-",
        "tar -tf src/a.tar -T src/list",
        // 3. bzip2 reads options from BZIP2 and BZIP.
        "BZIP2=src/v.bz2 tar tjf src/a.tar.bz2",
        "export BZIP=x; tar tjf src/a.tar.bz2",
        // 4. `${VAR:=...}` assigns (and under `set -a` exports) a variable that changes what runs.
        "set -a; : ${TAR_OPTIONS:=--checkpoint-action=exec=sh}; tar tf src/a.tar",
        ": ${LD_PRELOAD:=/tmp/x.so}; ls",
        // 5. unzip without a listing letter extracts; -T sets the archive's time; -M pages.
        "unzip -q src/a.zip",
        "unzip -M src/a.zip",
        "unzip -lT src/a.zip",
        // 6. xxd's options end at its first operand: `-ps` there is the file it writes.
        "xxd src/a.bin -ps",
        // 8. tar stats the file `-N` names.
        "tar tf src/a.tar -N /etc/shadow",
        // 9. unzip and zipinfo expand wildcards in the archive's name themselves.
        "unzip -l 'src/a.zi[p]'",
        "zipinfo '*.zip'",
    ] {
        assert_ne!(check(c)["decision"], "allow", "{c}");
    }
    // What stays allowed: plain listings.
    assert_all("allow", &["tar -tf src/a.tar", "unzip -l src/a.zip", "zipinfo src/a.zip", "xxd src/a.bin"]);
}

/// Finding 7: deny rules meet what a run-time word could be, an option (`"-f$e"` may be
/// `-fd`, and `"--force$e"` may be `--force`) or, for git push, a `+` refspec.
#[test]
fn redteam2_run_time_words_meet_deny_rules_as_the_options_they_could_be() {
    let policy = "version: 1\npermissions:\n  allow: [ \"Bash(git branch *)\", \"Bash(git push *)\" ]\n  deny: [ \
                  \"Bash(git push --force *)\", \"Bash(git branch -D *)\" ]\n";
    let decide = |c: &str| check_with(policy, c)["decision"].as_str().unwrap_or("?").to_string();
    for c in [
        "git branch -d \"-f$e\" feat",
        "git branch --delete \"--force$e\" feat",
        "git push origin \"+main$e\"",
        "git push origin \"+$b\"",
        "git push origin \"$(echo +main)\"",
        "git push origin +refs/heads/*:refs/heads/*",
        "git push origin -- \"$b\"",
    ] {
        assert_eq!(decide(c), "deny", "{c}");
    }
    for c in ["git push origin main", "git push origin main$x", "git branch -d feat", "git branch -d src/$x"] {
        assert_eq!(decide(c), "allow", "{c}");
    }
}
