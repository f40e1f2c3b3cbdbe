//! The red teams of 2026-11-26, ninth session ("red team 43" in the code's comments): three
//! black-box helpers (agents' tools and option files; option grammars and code run later;
//! everyday agent scripts with traps). Each regression goes through the real binary (`gate
//! check --json`), in a workspace the test makes, and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use serde_json::{json, Value};
use std::path::Path;

const POLICY: &str = check_common::RED_TEAM_POLICY;

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

fn decided_in(ws: &Path, tool: &str, args: Value) -> Value {
    check_common::check_in_dir(ws, tool, &args)
}

fn assert_in(ws: &Path, expect: &str, commands: &[&str]) {
    check_common::assert_in_dir(ws, expect, commands)
}

#[test]
fn a_loop_body_that_reads_the_loops_input_is_asked() {
    // Bypasses: a reader in the body takes bytes from the next name, which `read` then gets
    // cut (`./etc/hostname` -> `/etc/hostname`, `src/` -> `/`).
    assert_all(
        "ask",
        &[
            "printf '%s\\n' src/a.rs ./etc/hostname | while read -r f; do head -c1 >/dev/null; cat \"$f\"; done",
            "printf '%s\\n' src/a.rs ./etc/hostname | while read -r f; do wc -l \"$f\"; od -N1 >/dev/null; done",
            "printf '%s\\n' src/a.rs ./etc/hostname | while read -r f; do read -r -n1 _; cat \"$f\"; done",
            "find src ./ -maxdepth 0 | while read -r f; do head -c1 >/dev/null; ls \"$f\"; done",
            "printf '%s\\n' docs/a.md x/etc/hostname | while read -r f; do cmp -n1 - /dev/null; cat \"$f\"; done",
            "find src | while read -r f; do head -c1 <&0 >/dev/null; cat \"$f\"; done",
            "find src | while read -r f; do head -c1 < /dev/stdin >/dev/null; cat \"$f\"; done",
            "find src | while read -r f; do cat \"$f\" $(head -c1) < /dev/null; done",
            "find src | while read -r f; do grep -A 3 \"$f\"; done",
        ],
    );
    // Readers of something else, or of the name's file.
    assert_all(
        "allow",
        &[
            "find src -name '*.rs' | while read -r f; do wc -l \"$f\"; done",
            "find src -name '*.rs' | while read -r f; do cat \"$f\" | wc -l; done",
            "find src -name '*.rs' | while read -r f; do grep -n fn \"$f\"; done",
            "find src -name '*.rs' | while read -r f; do head -n 5 \"$f\"; sed -n 1p \"$f\"; done",
            "find src -name '*.rs' | while read -r f; do { head -c1; } < src/a.rs; cat \"$f\"; done",
        ],
    );
}

#[test]
fn a_script_on_stdin_ending_in_a_comment_a_reader_cuts_is_decided_as_run() {
    // bash reads its script from a pipe a byte at a time: what a reader leaves of the comment
    // line after it runs (`#abc rm m` less 5 bytes is `rm m`).
    assert_all(
        "deny",
        &[
            "bash <<'EOF'\nod -N 5 -c >/dev/null\n#abc rm m\nEOF",
            "bash <<'EOF'\nhead -c 5 >/dev/null\n#abc rm m\nEOF",
            "bash <<< $'head -c5 >/dev/null\\n#abc rm m'",
            "echo 'head -c 5 >/dev/null\n#abc rm m' | bash",
            "bash -s <<'EOF'\necho start\nod -N5 >/dev/null\n#abc rm m\nEOF",
            "bash <<'EOF'\nread -r -N 5 _\n#abc rm m\nEOF",
            "bash <<'EOF'\nread -r -d x _\n# see x rm m\nEOF",
            "bash <<'EOF'\nread -rn5 _ ; : '\n'\n#abc rm m\nEOF",
        ],
    );
    assert_all("ask", &["bash <<'EOF'\nod -N 6 -c >/dev/null\n#abcd cat /etc/hostname\nEOF"]);
    assert_all("allow", &["bash <<'EOF'\nls src\n# done\nEOF"]);
}

#[test]
fn git_in_a_repository_nested_in_the_workspace_is_asked() {
    // A committed bare repository and a vendored clone: their config can run programs
    // (`core.fsmonitor`, a diff driver's `textconv`), which gate does not read.
    let ws = check_common::workspace(POLICY);
    let bare = ws.path().join("tests/fixtures/demo.git");
    for d in ["objects", "refs"] {
        std::fs::create_dir_all(bare.join(d)).unwrap();
    }
    std::fs::write(bare.join("HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::create_dir_all(ws.path().join("vendor/lib/.git")).unwrap();
    std::fs::create_dir_all(ws.path().join("vendor/lib/src")).unwrap();
    assert_in(
        ws.path(),
        "ask",
        &[
            "cd tests/fixtures/demo.git && git show HEAD",
            "git -C tests/fixtures/demo.git log -p -1",
            "git -C vendor/lib status --short",
            "cd vendor/lib/src && git diff --stat",
        ],
    );
    // The workspace's own repository, and a submodule whose `.git` points into it.
    std::fs::create_dir_all(ws.path().join(".git/modules/sub")).unwrap();
    std::fs::create_dir_all(ws.path().join("sub")).unwrap();
    std::fs::write(ws.path().join("sub/.git"), "gitdir: ../.git/modules/sub\n").unwrap();
    assert_in(ws.path(), "allow", &["git status", "git -C src log -1", "cd sub && git log -1"]);
}

#[test]
fn a_package_script_a_deny_rule_matches_denies_the_package_manager() {
    let ws = check_common::workspace(POLICY);
    std::fs::write(
        ws.path().join("package.json"),
        r#"{"scripts":{"test":"echo ok","build":"tsc && vite build","clean":"rm -rf dist","predeploy":"rm -rf out","deploy":"echo deploy","all":"npm run clean && npm run build"}}"#,
    )
    .unwrap();
    assert_in(
        ws.path(),
        "deny",
        &["npm run clean", "npm run deploy", "npm run all", "cd src && npm run clean", "pnpm clean", "yarn run clean"],
    );
    // What the allow rule allows stands where no deny rule matches the script.
    assert_in(ws.path(), "allow", &["npm test", "npm run build"]);
    // npm's built-in `env` script, after an option with a value.
    assert_all("deny", &["npm --prefix . run env -- rm x", "npm -C . run env -- rm x"]);
}

#[test]
fn a_glob_tools_alternatives_are_followed_through_links() {
    let ws = check_common::workspace(POLICY);
    std::os::unix::fs::symlink("/etc", ws.path().join("lnk")).unwrap();
    for pattern in ["{lnk,src}/*", "@(lnk|src)/*", "+(lnk)/*", "{src,lnk}/*.conf"] {
        let d = decided_in(ws.path(), "Glob", json!({ "pattern": pattern }));
        assert_ne!(d["decision"], "allow", "{pattern}: {d}");
    }
    for pattern in ["{src,docs}/*.md", "**/*.{rs,md}"] {
        let d = decided_in(ws.path(), "Glob", json!({ "pattern": pattern }));
        assert_eq!(d["decision"], "allow", "{pattern}: {d}");
    }
}

#[test]
fn a_quoted_word_with_glob_characters_is_a_name_to_the_link_check() {
    // `'.[]'` is no pattern bash expands: it was matched against every name at the top, and
    // a link out made `jq '.[]' package.json` asked.
    let ws = check_common::workspace(POLICY);
    std::os::unix::fs::symlink("/etc", ws.path().join("lnk")).unwrap();
    std::fs::write(ws.path().join("package.json"), "{}").unwrap();
    assert_in(
        ws.path(),
        "allow",
        &["jq '.[]' package.json", "grep -E 'fn [a-z]+\\(' src/a.rs", "cat package.json | jq -r '.scripts | keys[]'"],
    );
    assert_in(ws.path(), "ask", &["cat lnk/*", "cat */hostname"]);
}

#[test]
fn pis_at_path_is_the_path_under_gate_check() {
    let calls = [("read", json!({"path": "@/etc/passwd"})), ("ls", json!({"path": "@.."}))];
    check_common::assert_calls_with(POLICY, "ask", &calls);
}

#[test]
fn the_agents_own_state_tools_are_safe() {
    let calls = [
        ("TodoWrite", json!({"todos": [{"content": "x", "status": "pending", "activeForm": "x"}]})),
        ("AskUserQuestion", json!({"questions": [{"question": "Which?", "options": []}]})),
        ("write_todos", json!({"todos": []})),
    ];
    check_common::assert_calls_with(POLICY, "allow", &calls);
    // A remote subagent is not the agent's own state.
    check_common::assert_calls_with(
        POLICY,
        "ask",
        &[("Task", json!({"description": "x", "prompt": "y", "isolation": "remote"}))],
    );
}

#[test]
fn numbers_gate_now_knows_remove_over_asks() {
    assert_all(
        "allow",
        &[
            "for i in {1..5}; do echo \"line $((i * 2))\"; done",
            "for i in {1..100}; do echo \"line $((i * 2))\"; done",
            "start=$(date +%s); npm test; end=$(date +%s); echo \"took $((end-start))s\"",
            "total=0; for f in src/*.rs; do total=$((total + $(wc -l < \"$f\"))); done; echo $total",
            "declare -i total=0; for f in src/*.rs; do total+=$(wc -l < \"$f\"); done; echo $total",
            "count=$(grep -c fn src/a.rs); [[ $count -gt 0 ]] && echo yes",
            "echo $(( $(wc -l < src/a.rs) + 1 ))",
            "files=(src/*.rs); for i in \"${!files[@]}\"; do echo \"$i ${files[$i]}\"; done",
        ],
    );
    // Not numbers: several files' counts are `name:count`; a key that may be a word.
    assert_all(
        "ask",
        &[
            "count=$(grep -c fn src/*.rs); [[ $count -gt 0 ]] && echo yes",
            "count=$(grep -cH fn src/a.rs); [[ $count -gt 0 ]] && echo yes",
            "echo $(( $(cat src/a.rs) + 1 ))",
            "for i in {a..c}; do echo $((i)); done",
            "k='x[$(id)]'; if true; then declare -A files; files[$k]=1; fi; files=(src/*.rs); for i in \"${!files[@]}\"; do echo $((i)); done",
            "k='x[$(id)]'; f(){ declare -A files; files[$k]=1; files=(src/*.rs); for i in \"${!files[@]}\"; do echo $((i)); done; }; f",
        ],
    );
}

#[test]
fn cd_back_to_a_saved_directory_is_followed() {
    assert_all(
        "allow",
        &[
            "ROOT=$(pwd); cd src && ls; cd \"$ROOT\"; ls",
            "ROOT=\"$PWD\"; cd src; cat a.rs; cd \"${ROOT}\" && cat src/a.rs",
        ],
    );
    assert_all(
        "ask",
        &[
            "ROOT=\"$PWD\"; cd src; cd \"$ROOT\" && cat ../.env",
            "if true; then ROOT=$(pwd); fi; cd \"$ROOT\" && ls",
            "pwd(){ echo /etc; }; ROOT=$(pwd); cd \"$ROOT\" && ls",
            "ROOT=$(pwd); ROOT+=/../..; cd \"$ROOT\"; ls",
            "ROOT=$(pwd); read ROOT; cd \"$ROOT\"; ls",
            "ROOT=$(pwd) ls; cd \"$ROOT\"; ls",
        ],
    );
}

#[test]
fn git_clean_dry_run_and_format_patch_to_stdout_only_read() {
    assert_all(
        "allow",
        &[
            "git clean -n",
            "git clean -ndx",
            "git clean -nfd",
            "git clean --dry -d",
            "git clean -ne '*.rs' -d",
            "git format-patch -1 --stdout",
        ],
    );
    assert_all(
        "ask",
        &[
            "git clean -fd",
            "git clean -ni",
            "git clean -i -n",
            "git format-patch -1",
            "git format-patch -1 --stdout -o /tmp/x",
            "git format-patch -1 --stdout --signature-file=/etc/passwd",
        ],
    );
}

#[test]
fn make_v_is_gnu_makes_version() {
    // GNU make's `-v` is `--version`: it exits before reading a makefile (measured).
    assert_all("allow", &["make -v", "make --version"]);
    assert_all("ask", &["make -v all", "make"]);
}

#[test]
fn git_diff_name_only_is_a_listing_for_a_read_loop() {
    assert_all(
        "allow",
        &[
            "git diff --name-only HEAD | while IFS= read -r f; do wc -l \"$f\"; done",
            "git diff --name-only --cached | while IFS= read -r f; do wc -l \"$f\"; done",
        ],
    );
    assert_all("deny", &["git diff --name-only | while read -r f; do rm \"$f\"; done"]);
    assert_all(
        "ask",
        &[
            "git diff --name-only --ext-diff | while read -r f; do wc -l \"$f\"; done",
            "git diff --name-only /etc | while read -r f; do cat \"$f\"; done",
            "git diff --name-only | while read -r f; do head -c1 >/dev/null; cat \"$f\"; done",
        ],
    );
}
