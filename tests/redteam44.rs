//! The red teams of 2026-11-27, tenth session ("red team 44" in the code's comments): three
//! black-box helpers (shell grammar and code run later; every path, option file, git and
//! directory state; everyday agent scripts with traps), and the calls red team 43 left only
//! asked. Each regression goes through the real binary (`gate check --json`), in a workspace
//! the test makes, and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use check_common::{assert_in_dir as assert_in, write_file as write};

use serde_json::{json, Value};
use std::path::Path;

const POLICY: &str = check_common::RED_TEAM_POLICY;

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

fn decided_in(ws: &Path, tool: &str, args: Value) -> Value {
    check_common::check_in_dir(ws, tool, &args)
}

#[test]
fn code_that_runs_unseen_with_a_deny_rules_words_in_the_call_is_denied() {
    // Red team 43 held these only asked: what runs is built from the call's own text.
    assert_all(
        "deny",
        &[
            "sed -n 's/.*/rm x/ep' src/a.rs",
            "awk -v c='rm x' 'BEGIN{system(c)}'",
            "awk 'BEGIN{print \"rm x\" | \"sh\"}'",
            "bash /dev/fd/3 3<<'EOF'\nrm m\nEOF",
            "x='\\044(rm m)'; echo \"${x@P}\"",
            "PS4='\\044(rm m)'; set -x; :",
            "BASH_ENV='$(rm m)' bash -c :",
            "bash -c '\"$0\" m' rm",
            "npm_config_script_shell=rm npm test",
            "BASH_CMDS=([ls]=/bin/rm); ls m",
            "$(printf '\\x72\\x6d') -f m",
            "printf 'read x\\n: <<\"E\"\\nrm -f x\\nE\\n' | bash",
        ],
    );
    // And the file names in it, where a deny rule holds them in any directory.
    assert_all("deny", &["awk '{f=\".env\"; print > f}' src/a.rs", "awk '{print $0 > \".env\" \".bak\"}' src/a.rs"]);
    // Without a deny rule's words, unseen code stays asked.
    assert_all(
        "ask",
        &["x=om; eval \"${x/o/$y} m\"", "sed -n 's/.*/ls x/ep' src/a.rs", "awk 'BEGIN{system(\"l\" \"s\")}'"],
    );
}

#[test]
fn programs_that_write_a_file_they_are_given_are_decided_as_writes() {
    assert_all(
        "deny",
        &[
            "zip -r .env.zip src",
            "zip -r .env src",
            "gcc -x c -M -MF .env src/a.rs",
            "gcc -M -MF.env src/a.rs",
            "rustc --emit=link=.env src/a.rs",
            "rustc --emit dep-info=Cargo.toml,link src/a.rs",
            "cpp src/a.rs .env",
            "sqlite3 db.sqlite '.output .env' 'select 1'",
            "sqlite3 db.sqlite '.once Cargo.toml'",
            "mktemp .envXXXX",
            "mktemp -p docs .envXXXX",
            "ssh-keygen -q -f .env.key -N ''",
            "git merge-file Cargo.toml src/a.rs src/b.rs",
            "git interpret-trailers --in-place --trailer x=y Cargo.toml",
            "git mailinfo msg .env",
            "git fast-export --export-marks=Cargo.toml HEAD",
        ],
    );
    // The forms that only read or print are not denied.
    for c in ["ssh-keygen -lf .env.pub", "git merge-file -p Cargo.toml src/a.rs src/b.rs", "mktemp -u .envXXXX"] {
        assert_ne!(check_common::check_command(POLICY, c)["decision"], "deny", "{c}");
    }
}

#[test]
fn a_function_defined_more_than_once_has_every_body_decided() {
    // Which body runs depends on what gate does not follow: a subshell, a branch not taken,
    // a trap or a loop pass after a redefinition, `readonly -f`.
    assert_all(
        "deny",
        &[
            "f(){ rm m; }; (f(){ :; }); f",
            "f(){ rm m; }; echo | f(){ :; }; f",
            "f(){ rm m; }; false && f(){ :; }; f",
            "f(){ rm m; }; if false; then f(){ :; }; fi; f",
            "f(){ rm m; }; while false; do f(){ :; }; done; f",
            "f(){ rm m; }; g(){ f(){ :; }; }; f",
            "lint(){ rm -rf m; }; [ -d nonexist ] && lint(){ ls; }; lint",
            "f(){ :; }; trap f EXIT; f(){ rm m; }",
            "cleanup(){ :; }; trap cleanup EXIT; npm test; cleanup(){ rm -f m; }",
            "f(){ :; }; trap f DEBUG; f(){ rm m; }; :",
            "f(){ :; }; until false; do f; f(){ rm m; }; [ -e m ] || break; done",
            "show(){ cat \"$1\"; }; for f in src/*.rs; do show \"$f\"; show(){ rm -f \"$1\"; }; done",
            "f(){ rm m; }; readonly -f f; f(){ :; }; f",
            "f(){ :; }; trap f EXIT; eval \"f(){ rm m; }\"",
        ],
    );
    assert_all("ask", &["f(){ cat /etc/hostname; }; (f(){ cat src/a.rs; }); f"]);
    // One definition, called with known words, stays allowed.
    assert_all("allow", &["count(){ wc -l \"$1\"; }; count src/a.rs", "f(){ ls; }; f; f"]);
}

#[test]
fn xargs_or_a_filter_with_its_own_input_is_not_fed_the_listing() {
    // The names come from a here-string, a file or another delimiter, not from find.
    assert_all(
        "ask",
        &[
            "find src -name '*.rs' | xargs cat <<< /etc/passwd",
            "grep -rl 'fn ' src | xargs wc -l <<< /etc/shadow",
            "find src -name '*.rs' | xargs cat <<'EOF'\n/etc/passwd\nEOF",
            "find src -name '*.rs' | xargs -a docs/files.md cat",
            "find src -name '*.rs' | xargs --arg-file=/dev/stdin cat <<< /etc/passwd",
            "find src -name '*.rs' | timeout 10 xargs cat <<< /etc/passwd",
            "find . -maxdepth 1 -name '.e*' | xargs -d . ls",
            "find src -name '*.rs' | sort <<< /etc/passwd | while read -r f; do cat \"$f\"; done",
            "grep -rl fn src | tail -n 20 <<< /etc/passwd | xargs -r wc -l",
            "find src -name '*.rs' | sort < docs/l.md | while read -r f; do wc -l \"$f\"; done",
        ],
    );
    assert_all(
        "allow",
        &[
            "find src -name '*.rs' | xargs wc -l",
            "find src -name '*.rs' | sort | xargs wc -l",
            "find src -name '*.rs' | xargs -d '\\n' wc -l",
        ],
    );
}

#[test]
fn operands_xargs_adds_that_the_program_writes_are_writes() {
    assert_all("ask", &["find src -name '*.rs' | xargs touch"]);
    // The call names the denied file it feeds xargs (red team 45).
    assert_all("deny", &["printf '%s\\n' Cargo.toml | xargs tee"]);
    // And where the listing's pattern names it (red team 47).
    assert_all(
        "deny",
        &[
            "find . -maxdepth 1 -name '*.toml' | xargs tee",
            "git ls-files '*.toml' | xargs tee",
            "find . -maxdepth 1 -name '*.toml' | xargs sh -c 'tee \"$@\"' _",
        ],
    );
}

#[test]
fn a_here_document_delimiter_spelled_with_dollar_quotes_is_not_trusted() {
    // bash's delimiter is `EOF`: the lines after it run.
    assert_all(
        "deny",
        &[
            "cat > docs/notes.md <<$'EOF'\n# Notes\nEOF\nrm -f marker\n$EOF",
            "cat > docs/notes.md <<$\"EOF\"\n# Notes\nEOF\nrm -f marker\n$\"EOF\"",
            "cat > docs/notes.md <<E$'O'F\n# Notes\nEOF\nrm -f marker\nE$OF",
        ],
    );
    assert_all("ask", &["cat > docs/notes.md <<$'EOF'\n# Notes\nEOF\ncat ~/.ssh/id_rsa\n$EOF"]);
    assert_all("allow", &["cat > docs/notes.md <<'EOF'\n# Notes\nEOF"]);
}

#[test]
fn a_package_managers_scripts_are_decided_where_they_really_are() {
    let ws = check_common::workspace(POLICY);
    let w = ws.path();
    write(w, "package.json", r#"{"scripts":{"test":"echo ok","build":"echo build","check":"sort -u words.txt"}}"#);
    write(w, "vendor/pkg/package.json", r#"{"scripts":{"test":"rm -f marker","build":"rm -f marker"}}"#);
    write(w, "vendor/app/package.json", r#"{"scripts":{"test":"echo ok"}}"#);
    write(w, "vendor/app/.npmrc", "script-shell=../../scripts/sh.sh\n");
    write(w, "vendor/tool2/package.json", r#"{"scripts":{"check":"sort -u words.txt","test":"grep -c x words.txt"}}"#);
    write(w, "vendor/tool2/node_modules/.bin/sort", "#!/bin/sh\nrm -f marker\n");
    // Another package's scripts, named by an option npm reads in any case and with one dash.
    assert_in(
        w,
        "deny",
        &[
            "npm run build --prefix vendor/pkg",
            "npm run build -C vendor/pkg",
            "npm run --prefix=vendor/pkg test",
            "npm test --PREFIX vendor/pkg",
            "npm test -prefix vendor/pkg",
            // Where the `cd` worked (red team 45: asked before).
            "if cd vendor/pkg; then npm test; fi",
        ],
    );
    // A directory gate cannot follow, an `.npmrc` that sets the shell, a program the package's
    // `node_modules/.bin` shadows, packages gate does not find.
    assert_in(
        w,
        "ask",
        &[
            "eval cd vendor/pkg; npm test",
            "command cd vendor/pkg; npm test",
            "cd vendor/app && npm test",
            "cd vendor/tool2 && npm run check",
            "npm test --prefix \"$P\"",
            "npm test --workspaces",
            "pnpm -r test",
            // `cd -` back to the root cannot fail: not decided from vendor/pkg (which denied
            // it); asked only for the way where the first `cd` failed and OLDPWD is unknown.
            "cd vendor/nosuch; cd -; npm test",
        ],
    );
    // (A `cd` into a directory that is there does not fail: red team 83.)
    assert_in(w, "allow", &["cd vendor/pkg; cd -; npm test"]);
    let d = decided_in(w, "Bash", json!({ "command": "npm test", "dir_path": "vendor/app" }));
    assert_eq!(d["decision"], "ask", "{d}");
    // The package's own scripts, where nothing shadows them.
    assert_in(w, "allow", &["npm test", "npm run check", "cd vendor/app/.. && npm run build"]);
}

#[test]
fn a_path_behind_other_letters_of_a_bundle_handed_to_a_script_is_decided() {
    assert_all("deny", &["npm run sortwords -- -uo.env", "npm test -- -xo.env.local"]);
    assert_all("ask", &["npm run sortwords -- -uo/tmp/x"]);
}

#[test]
fn git_format_patch_no_stdout_after_stdout_writes_files() {
    assert_all("ask", &["git format-patch --stdout -1 --no-stdout", "git format-patch --stdout --no-std -1"]);
    assert_all("allow", &["git format-patch --no-stdout --stdout -1", "git format-patch --stdout -1"]);
}

#[test]
fn a_search_pattern_that_reads_as_an_option_with_a_value_is_asked() {
    let ws = check_common::workspace(POLICY);
    for args in [json!({ "pattern": "--pre=rm", "path": "src" }), json!({ "pattern": "--file=/etc/passwd" })] {
        let d = decided_in(ws.path(), "grep", args.clone());
        assert_eq!(d["decision"], "ask", "{args}: {d}");
    }
    // Searching for an option's name is everyday work.
    let d = decided_in(ws.path(), "grep", json!({ "pattern": "--verbose", "path": "src" }));
    assert_eq!(d["decision"], "allow", "{d}");
}

#[test]
fn git_status_in_a_repository_with_an_embedded_submodule_is_asked() {
    // A submodule whose `.git` is a repository of its own: `git status` runs git there, with
    // that repository's config (`core.fsmonitor`).
    let ws = check_common::workspace(POLICY);
    let w = ws.path();
    write(w, ".gitmodules", "[submodule \"vendor/lib\"]\n\tpath = vendor/lib\n\turl = ./vendor/lib\n");
    write(w, "vendor/lib/.git/config", "[core]\n\tfsmonitor = ./fsmon.sh\n");
    assert_in(w, "ask", &["git status", "git diff --stat", "git describe --dirty --always", "git -C src status"]);
    // Forms that do not look into submodules' working trees.
    assert_in(
        w,
        "allow",
        &[
            "git log --oneline",
            "git status --ignore-submodules",
            "git status -s src",
            "git diff --cached",
            "git stash list",
        ],
    );
}

#[test]
fn git_after_a_directory_change_gate_cannot_follow_is_asked() {
    let ws = check_common::workspace(POLICY);
    assert_in(ws.path(), "ask", &["eval cd vendor/lib; git status", "if cd \"$D\"; then git log -1; fi"]);
}
