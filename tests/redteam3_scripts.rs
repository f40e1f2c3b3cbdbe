//! Issue 15, third red team, the small languages of awk and sed (findings F1, F1b, F11, F12):
//! gate's readers of an awk program and a sed script must see every command the real program
//! runs. Regression cases go through the real binary (`gate check --json`) against the
//! corpus policy (tests/corpus/host.yaml), named after the finding; property tests generate
//! variants, with GNU sed itself, run in a scratch directory, as the oracle of what a script
//! really runs, reads and writes.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use std::path::Path;
use std::process::Command;

use gate::policy::{Policy, Verdict};
use proptest::prelude::*;
use serde_json::{json, Value};

const GATE: &str = env!("CARGO_BIN_EXE_gate");
const HOST: &str = include_str!("corpus/host.yaml");

/// `gate check --json` of one shell command, in an empty workspace holding the corpus policy.
fn check(command: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("host.yaml"), HOST).unwrap();
    let args = json!({ "command": command }).to_string();
    let out = Command::new(GATE)
        .current_dir(dir.path())
        .env("HOME", home.path())
        .env_remove("XDG_CONFIG_HOME")
        .args(["check", "--json", "Bash", &args])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

fn assert_all(expect: &str, commands: &[&str]) {
    for c in commands {
        let d = check(c);
        assert_eq!(d["decision"], expect, "{c}: {d}");
    }
}

fn assert_none_allowed(commands: &[&str]) {
    for c in commands {
        let d = check(c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
}

fn policy_at(dir: &Path) -> Policy {
    check_common::policy_at(HOST, dir)
}

use check_common::{decide_command as decide, shell_quote};

// ---- F1, F1b: sed labels, and every other place sed's compiler ends a part ----

#[test]
fn redteam3_sed_label_ends_at_semicolon() {
    assert_all(
        "deny",
        &[
            "sed -n ':a;1e rm -rf /tmp/v' x",
            "sed -n ':a;$!{N;ba};1e rm -rf /tmp/v' x",
            "sed -n 'ba;:a;1e rm -rf x' x",
            "sed ':a;1w .env' x",
        ],
    );
    assert_none_allowed(&[
        "sed ':a;1r /etc/shadow' x",
        "echo hi | sed ':x;1r /etc/shadow'",
        "sed ':a;w /tmp/out' x",
        "sed ':a;s/x/y/e' x",
        "sed 'bx;:x;1r /etc/shadow' x",
        "sed ':a;R /etc/shadow' x",
        "sed ':a;W /tmp/out' x",
    ]);
}

#[test]
fn redteam3_sed_label_ends_at_blank_brace_and_comment() {
    assert_all(
        "deny",
        &[
            "sed -n ':a 1e rm -rf x' x",
            "sed -n ':a\t1e rm -rf x' x",
            "sed -n 'tx 1e rm -rf x\n:x' x",
            "sed -n '$!bx 1e rm -rf x\n:x' x",
            "sed -n '1{bx}\n1e rm -rf x\n:x' x",
            "sed -n 'bx#c\n1e rm -rf x\n:x' x",
        ],
    );
    assert_none_allowed(&[
        "sed ':a 1r /etc/shadow' x",
        "sed -e ':x' -e 'tx 1r /etc/shadow' x",
        "sed -e ':x' -e 'Tx 1r /etc/shadow' x",
        "sed -e ':x' -e 'b x 1r /etc/shadow' x",
    ]);
    // A label holding a character seds end labels at differently (GNU reads `\r`, `{`, `"`
    // into it; others stop) is not modelled.
    assert_none_allowed(&["sed ':a\r1r /etc/shadow' x", "sed ':a{;1p' x", "sed 'ba\";p;:a\"' x"]);
}

#[test]
fn redteam3_sed_bracket_expression_holds_the_delimiter() {
    // GNU sed reads `[/]` whole: the `s` below ends after `;a`, and `1e rm -rf x` runs.
    assert_none_allowed(&[
        "sed 's/[/]/;a/;1e rm -rf x' x",
        "sed -n '/[/]/b;a/;1e rm -rf x' x",
        "sed 's|[|]|;a|;1e rm -rf x' x",
        "sed 's/[]/]/;a/;1e rm -rf x' x",
        "sed 's/[^]/]/;a/;1e rm -rf x' x",
        "sed 's/[[:alpha:]/]/;a/;1e rm -rf x' x",
    ]);
    // Bracket expressions without the delimiter are read exactly.
    assert_all("deny", &["sed 's/[]a[:digit:]]/x/;1e rm -rf x' f", "sed -n '/[[:space:]]/p;1e rm -rf x' f"]);
}

#[test]
fn redteam3_sed_escaped_backslash_ends_appended_text() {
    // `\\` is an escaped backslash: the newline after it ends the text, and the next line is a
    // command. `\ ` likewise.
    assert_all(
        "deny",
        &["sed '1a foo\\\\\n1e rm -rf x' x", "sed '1a foo\\ \n1e rm -rf x' x", "sed '1i\\\nx\\\\\n1e rm -rf x' x"],
    );
    // A backslash before the newline goes on: the next line is text.
    assert_all("allow", &["sed '1a foo\\\n1e rm -rf x' f"]);
}

#[test]
fn redteam3_sed_harmless_scripts_stay_allowed() {
    assert_all(
        "allow",
        &[
            "sed -n '1,10p' f",
            "sed 's/a/b/g' f",
            "sed ':a;N;$!ba;s/\\n/ /g' f",
            "sed -e :a -e '$!N;s/\\n//;ta' f",
            "sed -n ':a;$!{N;ba};p' f",
            "sed '/^$/d' f",
            "sed -E 's/[[:space:]]+$//' f",
            "sed -n '/start/,/end/{/end/!p}' f",
            "sed 's|/usr/local|/opt|g' f",
            "sed '1i\\\nheader' f",
            "sed '$a footer' f",
            "sed 's/[^a-z]//g;y/abc/xyz/' f",
            "sed -n 's/.*version = \"\\([^\"]*\\)\".*/\\1/p' f",
            "sed '1d;$d' f",
            "sed 10q f",
            "sed -n 'l 40' f",
            "sed 's/a/b/ ; s/c/d/' f",
            "sed 's/a/b/;# comment' f",
            "sed '0~2d' f",
            "sed -n '2,+3p' f",
            "sed -n '/x/I{p;q}' f",
        ],
    );
}

/// Label names, with the characters that end a label in GNU sed and those that only other
/// seds might end it at.
fn label() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => proptest::sample::select(vec!['a', 'b', 'x', '1', '_']),
            1 => proptest::sample::select(vec!['#', '"', ';', ' ', '}', '{', '!', '/', '\\', '\r', '\t', '\'']),
        ],
        1..5,
    )
    .prop_map(|v| v.into_iter().collect())
}

/// What a harmful command looks like after the label: each runs, reads or writes what the
/// oracle run can see (`sed_effects`).
const SED_HARMFUL: &[&str] =
    &["1e rm -rf x #", "1r ../secret", "R ../secret", "w .env", "W ../out", "s/x/y/e", "s/x/y/w .env"];

/// A piece of a sed script: the harmless commands common scripts are made of, and harmful ones.
fn sed_piece() -> impl Strategy<Value = String> {
    let chars = proptest::sample::select(vec!["a", "/", "[", "]", "^", ":", "\\", "#", ";", " ", "\n", "x", "|", "\""]);
    let text = proptest::collection::vec(chars, 0..5).prop_map(|v| v.concat());
    prop_oneof![
        label().prop_map(|l| format!(":{l}")),
        (proptest::sample::select(vec!["b", "t", "T", "$!b", "b "]), label()).prop_map(|(c, l)| format!("{c}{l}")),
        (text.clone(), text.clone(), proptest::sample::select(vec!["", "g", "p", " ", "I"]))
            .prop_map(|(p, r, f)| format!("s/{p}/{r}/{f}")),
        text.clone().prop_map(|p| format!("/{p}/p")),
        text.clone().prop_map(|p| format!("\\,{p},d")),
        (proptest::sample::select(vec!["1a", "$a", "1i", "c"]), text).prop_map(|(c, t)| format!("{c} {t}")),
        proptest::sample::select(vec!["N", "$!N", "{", "}", "$!{N;ba}", "p", "1d", "y/ab/cd/", "#c", "q"])
            .prop_map(str::to_string),
        proptest::sample::select(SED_HARMFUL.to_vec()).prop_map(str::to_string),
    ]
}

fn sed_script() -> impl Strategy<Value = String> {
    proptest::collection::vec((sed_piece(), proptest::sample::select(vec![";", "\n", " ", "\t", "", "; "])), 1..6)
        .prop_map(|v| v.into_iter().map(|(p, s)| format!("{p}{s}")).collect())
}

/// The program `name` on the test's PATH.
fn on_path(name: &str) -> std::path::PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file()).unwrap_or_else(|| panic!("no {name}"))
}

/// Run GNU sed on `scripts` (one `-e` each) in a scratch workspace `ws/` beside a secret
/// file, with a PATH holding only a `touch` and an `rm` that leave a mark and do nothing else
/// (its input is a line that `s/x/y/e` turns into a `touch`). What it did that gate must not
/// allow: the secret printed, a file written anywhere, a command run. `None` when it did
/// nothing of that.
fn sed_effects(scripts: &[String]) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let bin = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("f"), "touch x\nb\n").unwrap();
    std::fs::write(dir.path().join("secret"), "SECRET\n").unwrap();
    for name in ["touch", "rm"] {
        let p = bin.path().join(name);
        std::fs::write(&p, format!("#!/bin/sh\n: > ran_{name}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut cmd = Command::new(on_path("sed"));
    cmd.arg("-n");
    for s in scripts {
        cmd.arg("-e").arg(s);
    }
    cmd.arg("f").current_dir(&ws).env("PATH", bin.path()).env("HOME", "/nonexistent-home");
    let mut child = cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null()).spawn().unwrap();
    // A script that loops (`:a;ba`) is stopped; what it did until then counts.
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() && start.elapsed() < std::time::Duration::from_secs(2) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let names = |d: &Path| {
        let mut v: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        v.sort();
        v
    };
    if String::from_utf8_lossy(&out.stdout).contains("SECRET") {
        return Some("printed the secret".into());
    }
    if names(&ws) != ["f"] || names(dir.path()) != ["secret", "ws"] {
        return Some(format!("left {:?} in the workspace, {:?} beside it", names(&ws), names(dir.path())));
    }
    None
}

#[test]
fn redteam3_sed_oracle_sees_what_sed_does() {
    for harmful in SED_HARMFUL.iter().filter(|h| !h.starts_with("s/")) {
        assert!(sed_effects(&[harmful.to_string()]).is_some(), "{harmful}");
    }
    assert!(sed_effects(&["s/x/y/e".to_string()]).is_some());
    assert!(sed_effects(&[":a;N;$!ba;s/\\n/ /g;p".to_string()]).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// A plain label (what every sed ends at the same place), any separator GNU sed ends a
    /// label at, then a harmful command: never allowed.
    #[test]
    fn redteam3_sed_label_never_hides_a_harmful_suffix(
        name in "[a-zA-Z0-9_]{1,6}",
        form in proptest::sample::select(vec![":L", "bL", "tL", "TL", "$!bL", "b L", "1{bL}", "$!{N;bL}"]),
        sep in proptest::sample::select(vec![";", " ", "\t", "\n", " ; ", "\n\n"]),
        harmful in proptest::sample::select(SED_HARMFUL.to_vec()),
    ) {
        let script = format!("{}{sep}{harmful}", form.replace('L', &name));
        let cmd = format!("sed -n {} f", shell_quote(&script));
        let dir = tempfile::tempdir().unwrap();
        prop_assert_ne!(decide(&policy_at(dir.path()), &cmd), Verdict::Allow, "{}", cmd);
    }

    /// GNU sed as the oracle: whatever the script, when gate allows it, sed run on it prints
    /// no secret from outside the workspace, writes no file and runs no command.
    #[test]
    fn redteam3_sed_allowed_scripts_run_read_and_write_nothing(
        scripts in proptest::collection::vec(sed_script(), 1..3),
    ) {
        let cmd = format!(
            "sed -n {} f",
            scripts.iter().map(|s| format!("-e {}", shell_quote(s))).collect::<Vec<_>>().join(" ")
        );
        let dir = tempfile::tempdir().unwrap();
        if decide(&policy_at(dir.path()), &cmd) == Verdict::Allow {
            let did = sed_effects(&scripts);
            prop_assert!(did.is_none(), "gate allows {} but sed {:?}", cmd, did);
        }
    }
}

// ---- F11: awk regex literals; F12: ARGV and ARGC ----

#[test]
fn redteam3_awk_regex_hides_nothing() {
    assert_all(
        "deny",
        &[
            "awk '/#/{}; BEGIN{system(\"rm -rf x\")}' /dev/null",
            "awk '$0 ~ /\"/; BEGIN{system(\"rm -rf x\")} #\"' /dev/null",
            "awk '/#/{}; BEGIN{print \"x\" > \".env\"}' /dev/null",
            // After an operand: division in mawk, a regex in gawk after `if (...)`.
            "awk 'BEGIN { if (1) /#/; system(\"rm -rf x\") }'",
            "awk '{ x = a /#/; system(\"rm -rf x\") }' f",
            "awk '{ x = a / 2 # /; system(\"rm -rf x\")\n}' f",
        ],
    );
    assert_none_allowed(&[
        "awk '/#/{}; BEGIN{while((getline l < \"/etc/shadow\")>0) print l}' /dev/null",
        "awk '/#/; {print | \"sh\"}' /dev/null",
        "awk '/[/]/; BEGIN{system(\"ls\")}' f",
        "awk '{print > \".e\" \"nv\"}' f",
        "awk 'BEGIN{\"cat \" \"/etc/shadow\" | getline; print}'",
        "awk '{getline a[1] < \"/etc/shadow\"; print a[1]}' f",
    ]);
}

#[test]
fn redteam3_awk_argv_assignment_reads_unknown_files() {
    assert_none_allowed(&[
        "awk 'BEGIN{ARGV[1]=\"/etc/shadow\"; ARGC=2} {print}'",
        "awk 'BEGIN{ARGV[ARGC++]=\"/root/.ssh/id_rsa\"} 1'",
        "awk 'BEGIN{split(\"x /etc/shadow\", ARGV); ARGC=3} 1'",
        "awk 'function f(a) { a[1] = \"/etc/shadow\" } BEGIN { f(ARGV); ARGC = 2 } 1'",
        "awk 'BEGIN{SYMTAB[\"ARGC\"] = 2} 1'",
        "awk -v ARGC=3 1 f",
        "awk 1 ARGC=3 f",
        "awk -fprog.awk f",
        "awk -d.env 1 f",
    ]);
}

#[test]
fn redteam3_awk_harmless_programs_stay_allowed() {
    assert_all(
        "allow",
        &[
            "awk '/foo/ {print $1}' f",
            "awk -F: '{print $1}' f",
            "awk '{s+=$1} END {print s/NR}' f",
            "awk '$1 ~ /^#/ {next} {print}' f",
            "awk '{print $1/$2, $3/$4}' f",
            "awk '$1 > \"2024\" {print}' f",
            "awk 'NR%2==0 {print; next} {printf \"%s \", $0}' f",
            "awk '{ gsub(/[[:space:]]+/, \" \"); print }' f",
            "awk 'BEGIN{FS=\",\"} {sum[$1]+=$2} END{for(k in sum) print k, sum[k]}' f",
            "awk '!seen[$0]++' f",
            "awk 'BEGIN { for (i = 1; i < ARGC; i++) print ARGV[i] }' a b",
            "awk -v n=3 'NR <= n' f",
        ],
    );
}

/// Regex contents with what hides code from a reader that does not know regexes.
fn regex_body() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        proptest::sample::select(vec!["#", "\"", ";", " ", "a", "\\/", "}", "{", "[#]", "[[:space:]]", "'"]),
        0..5,
    )
    .prop_map(|v| v.concat())
}

/// Harmful awk code, each with an effect the oracle run can see (`awk_effects`).
const AWK_HARMFUL: &[&str] = &[
    "BEGIN{system(\"rm -rf x\")}",
    "BEGIN{print \"x\" > \".env\"}",
    "BEGIN{while((getline l < \"../secret\")>0) print l}",
    "{print | \"rm x\"}",
    "BEGIN{\"rm x\" | getline}",
    "BEGIN{ARGV[1]=\"../secret\"; ARGC=2} {print}",
];

/// Where a regex can stand, and where a `/` may be division.
const AWK_REGEX_PLACES: &[&str] =
    &["/R/{}; ", "$0 ~ /R/; ", "{ x = a /R/ }\n", "BEGIN { if (1) /R/ }\n", "!/R/ {next} ", "{ gsub(/R/, \"\") } "];

fn awk_program() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec((proptest::sample::select(AWK_REGEX_PLACES.to_vec()), regex_body()), 1..3),
        proptest::sample::select(AWK_HARMFUL.to_vec()),
    )
        .prop_map(|(places, harmful)| {
            let mut p: String = places.iter().map(|(place, body)| place.replace('R', body)).collect();
            p.push_str(harmful);
            p
        })
}

/// Run the system's awk on `program` in a scratch workspace beside a secret file, with a PATH
/// holding only an `rm` that leaves a mark: the secret printed, a file written, or a command
/// run. `None` when it did nothing of that (awk rejecting the program included).
fn awk_effects(program: &str) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let bin = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("f"), "a\n").unwrap();
    std::fs::write(dir.path().join("secret"), "SECRET\n").unwrap();
    let rm = bin.path().join("rm");
    std::fs::write(&rm, "#!/bin/sh\n: > ran_rm\n").unwrap();
    std::fs::set_permissions(&rm, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new(on_path("awk"))
        .arg(program)
        .arg("f")
        .current_dir(&ws)
        .env("PATH", bin.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let mut names: Vec<String> =
        std::fs::read_dir(&ws).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    names.sort();
    if String::from_utf8_lossy(&out.stdout).contains("SECRET") {
        return Some("printed the secret".into());
    }
    (names != ["f"]).then(|| format!("left {names:?} in the workspace"))
}

#[test]
fn redteam3_awk_oracle_sees_what_awk_does() {
    for h in AWK_HARMFUL {
        assert!(awk_effects(h).is_some(), "{h}");
    }
    assert!(awk_effects("/#/{}; BEGIN{system(\"rm -rf x\")}").is_some());
    assert!(awk_effects("{print $1}").is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// A regex holding `#`, `"`, `;`, braces or quotes, wherever a regex or a division can
    /// stand, then harmful code: never allowed.
    #[test]
    fn redteam3_awk_regex_never_hides_a_harmful_suffix(program in awk_program()) {
        let cmd = format!("awk {} f", shell_quote(&program));
        let dir = tempfile::tempdir().unwrap();
        prop_assert_ne!(decide(&policy_at(dir.path()), &cmd), Verdict::Allow, "{}", cmd);
    }

    /// The system's awk as the oracle: a program built of regexes and divisions in every place
    /// and harmless code, when gate allows it, prints no secret, writes nothing, runs nothing.
    #[test]
    fn redteam3_awk_allowed_programs_do_nothing_harmful(
        places in proptest::collection::vec((proptest::sample::select(AWK_REGEX_PLACES.to_vec()), regex_body()), 1..4),
        tail in proptest::sample::select(vec!["{print}", "", "END{print NR}"]),
        harmful in proptest::option::of(proptest::sample::select(AWK_HARMFUL.to_vec())),
    ) {
        let mut program: String = places.iter().map(|(place, body)| place.replace('R', body)).collect();
        program.push_str(tail);
        program.push_str(harmful.unwrap_or(""));
        let cmd = format!("awk {} f", shell_quote(&program));
        let dir = tempfile::tempdir().unwrap();
        if decide(&policy_at(dir.path()), &cmd) == Verdict::Allow {
            let did = awk_effects(&program);
            prop_assert!(did.is_none(), "gate allows {} but awk {:?}", cmd, did);
        }
    }
}
