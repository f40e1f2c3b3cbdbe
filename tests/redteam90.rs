//! The red teams of the thirtieth session ("red team 90" in the code's comments, and the
//! over-asks earlier blind rounds left open that this session fixed). Each regression goes
//! through the real binary (`gate check --json`); where the answer rests on what bash or a
//! program does, bash is asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Left by blind red teams 82 B L06 and 83 C L02-L06, 88 B C9-01: find's `-exec` command
/// without `{}` was taken to be handed names (so `touch docs/x.md` was a write of names known
/// only at run time), and bc, gzip -c, tar -xO and -cf -, lscpu, ss, factor, shuf and groups
/// were not on the safe list. What each does is read by its option table: writing, running or acting
/// options keep it asked, and its files are decided as reads.
#[test]
fn find_exec_without_names_and_more_read_only_programs() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    std::os::unix::fs::symlink("/etc", ws.path().join("docs/lnk")).unwrap();
    // What find does: a command without `{}` gets no name.
    let out = check_common::bash_stdout(ws.path(), "find src -name a.rs -exec echo x \\;");
    assert_eq!(out, "x\n");
    let out = check_common::bash_stdout(ws.path(), "tar -czf /tmp/gate-rt90-$$.tgz src && tar -xOzf /tmp/gate-rt90-$$.tgz src/a.rs; rm -f /tmp/gate-rt90-$$.tgz; ls src");
    assert_eq!(out, "fn a() {}\na.rs\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "find src -name a.rs -exec touch docs/changed.md \\;",
            "echo \"scale=2; 10/3\" | bc",
            "bc -l docs/a.md",
            "gzip -c src/a.rs | wc -c",
            "tar -xOzf pkg.tgz src/a.rs",
            "lscpu | grep -i '^CPU(s)'",
            "ss -ltn",
            "ss -tulpn state listening",
            "factor 12",
            "less --version",
            "less -V",
            "arch",
            "shuf -n 2 docs/a.md",
            "groups",
            "tar -cf - src docs | wc -c",
            "tar -czf - src | tar -tzf -",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find src -exec touch {}x \\;",
            "bc /etc/passwd",
            "LESS=x less --version",
            "less docs/a.md",
            "gzip src/a.rs",
            "gzip -c /etc/passwd",
            "tar -xOzf /etc/x.tgz",
            "tar -xOz -f pkg.tgz --remove-files",
            "tar -xOf host:pkg.tgz",
            "lscpu -s /etc",
            "tar -cf - /etc/passwd | wc -c",
            "tar -chf - docs | wc -c",
            "tar -cf - src --remove-files | wc -c",
            "tar -cf - -C /etc . | wc -c",
            "tar -c -f - -f x.tar src",
            "ss -K dst 1.2.3.4",
            "ss -Dx",
            "ss --di=x",
            "printf '/etc/passwd\\n' | xargs cat",
            "printf 'src/a.rs\\\\n/etc/passwd\\n' | xargs cat",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "find src -exec touch .env \\;",
            "tar -xzf pkg.tgz",
            "shuf -o .env docs/a.md",
            "printf '.env\\n' | xargs -I{} sed -i s/a/b/ {}",
        ],
    );
}

/// Red team 90 A01-A07: bash takes `set -r` (the restricted shell), which `set --help` leaves
/// out, and gate read it as a letter `set` refuses: then `cd` is refused and every output
/// redirection fails, even to `/dev/null`, so `set -r; cd docs; cat ../x` read the directory
/// above the workspace and `{ x=echo; } >/dev/null` was skipped.
#[test]
fn set_r_the_restricted_shell() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(
        ws.path(),
        "set -r; cd docs 2>&1; pwd | sed 's,.*/,,'; x=a; { x=b; } >/dev/null; echo $x",
    );
    assert!(out.contains("restricted") && out.ends_with("\na\n"), "{out}");
    let top = ws.path().file_name().unwrap().to_str().unwrap();
    assert!(out.contains(&format!("\n{top}\n")), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "set -r; cd docs; cat ../secret",
            "set -r; pushd docs; cat ../secret",
            "set -rx; cd docs; cat ../secret",
            "set -r\ncd docs\ncat ../secret",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["set -r; x=rm; { x=echo; } >/dev/null; $x victim", "set -r; x=rm; { x=echo; } 2>/dev/null; $x victim"],
    );
}

/// Red team 90 D X01-X06: procps reads a value glued to `-u`, `-g` or `-s` (`-ue`) as a user,
/// group or session, and where none has that name reads the whole line again as BSD options,
/// where `e` prints every process's environment. A glued list of numbers (`-p123`) is not
/// read again (found in review: `ps -p123 -o pid,etime` was asked).
#[test]
fn ps_glued_values_read_again_as_bsd() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(ws.path(), "ask", &["ps -ue", "ps -aue", "ps -ge", "ps -se", "ps -fue", "ps -uewww"]);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["ps -u e", "ps -ef", "ps aux", "ps -p123 -o pid,etime", "ps -p1,2 -f"],
    );
}

/// Blind red teams 90 B and C: numbers gate could have known (`date -r FILE +%s`, `git
/// rev-list --count HEAD -- docs`), a bracket range that never matches `.` (`.[a-z]*`),
/// `yes`, and `git ls-files` after a read-only command find runs (`find ... -exec wc -l {} +
/// && git ls-files | xargs wc -c`): all were asked.
#[test]
fn numbers_dot_ranges_yes_and_index_listings_after_find() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    let out = check_common::bash_stdout(ws.path(), "echo .[a-z]*");
    assert!(!out.contains(".. ") && !out.starts_with(". "), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "echo $(( $(date +%s) - $(date -r src/a.rs +%s) ))",
            "n=$(git rev-list --count HEAD -- docs); echo \"commits: $((n))\"",
            "echo .[a-z]*",
            "yes | head -3",
            "find src -type f -name '*.rs' -exec wc -l {} + && git ls-files | xargs -d '\\n' wc -c | sort -n | tail -3",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["echo $(( $(date -r src/a.rs +%s%n) ))", "find src -exec git add {} + ; git ls-files | xargs wc -c"],
    );
}

/// Red team 91 (A01-A11, B01-B12: 23 bypasses of a build of this session): the new safe
/// programs read files their environment names (bc runs the scripts in `BC_ENV_ARGS`, ss reads
/// `/proc` below `PROC_ROOT` and its tables from `PROC_NET_*`), set by `read`, `printf -v`,
/// `for`, a brace expansion; and `printf 'NAME\n'` read as a listing of names was not looked
/// at for links (`lnk/p` leading out): that listing is gone, the names are asked again.
#[test]
fn environment_files_of_bc_and_ss_and_printed_names_through_links() {
    let ws = check_common::red_team_workspace(true);
    std::os::unix::fs::symlink("/etc/hostname", ws.path().join("docs/p")).unwrap();
    // What bc does with BC_ENV_ARGS: runs the file first.
    check_common::write_file(ws.path(), "s.bc", "print \"ran\\n\"\n");
    let out = check_common::bash_stdout(ws.path(), "export BC_ENV_ARGS=s.bc; echo 1+1 | bc -q");
    assert_eq!(out, "ran\n2\n");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "export PROC_ROOT; read PROC_ROOT <<< /tmp; ss -xa",
            "printf -v PROC_NET_UNIX %s /tmp/u; export PROC_NET_UNIX; ss -xa",
            "for PROC_ROOT in /tmp; do export PROC_ROOT; ss -xa; done",
            "export PROC_ROOT={x,/tmp}; ss -xa",
            "export BC_ENV_ARGS; read BC_ENV_ARGS <<< /tmp/s.bc; bc </dev/null",
            "export BC_ENV_ARGS={-q,/tmp/s.bc}; bc -q </dev/null",
            "export TCPDIAG_FILE=/tmp/x; ss -t",
            "printf 'docs/p\\n' | xargs -I{} cat {}",
            "printf 'docs/p\\n' | xargs -n1 cat",
            "mapfile -t a < <(printf 'docs/p\\n'); cat \"${a[@]}\"",
        ],
    );
}

/// Blind red team 91 C (O04, O05, O07, O09): `readonly OUT=docs/out.md` on a line of its own,
/// then `echo ... > "$OUT"` on the next, was asked: a text that makes OUT read-only was read
/// as if that very assignment could fail and end its line, as a plain `OUT=x` to a read-only
/// name does. A declaration builtin's assignment fails without ending the line, and a later
/// plain assignment to the name is still refused.
#[test]
fn readonly_declarations_on_their_own_line() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(ws.path(), "readonly a=1; readonly a=2; echo same\na=3; echo skipped\necho $a");
    assert_eq!(out, "same\n1\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "readonly OUT=docs/out.md\necho \"# out\" > \"$OUT\"",
            "set -euo pipefail\nreadonly ROOT=$PWD\nls \"$ROOT/src\"",
            "typeset -r base=src\ncat \"$base/a.rs\"",
            "declare -r ROOT=$PWD\ngrep -rn 'fn ' \"$ROOT/src\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "readonly f=.env\nf=docs/a.md\necho x > \"$f\"",
            "readonly f=.env\nreadonly f=docs/a.md\necho x > \"$f\"",
            "f=.env; readonly f\ndeclare f=docs/a.md\necho x > \"$f\"",
        ],
    );
}

/// Blind red teams 82 B L05, 90 B B36, 90 C I01, 91 B A17: `ls -d .*` was asked, as if `.*`
/// could match `..`. Under bash 5.2's `globskipdots` (on by default) no glob matches `.` or
/// `..`; gate asks this machine's bash whether the option is on, and reads globs so only where
/// it is. A text that turns it off, a POSIX `sh` running such a glob (dash matches `..`) and
/// a literal `..` still climb.
#[test]
fn dot_globs_where_bash_skips_dot_names() {
    let ws = check_common::red_team_workspace(true);
    let skips = check_common::bash_skips_dots();
    let listed = check_common::bash_stdout(ws.path(), "echo .*");
    assert_eq!(skips, !listed.split_whitespace().any(|n| n == ".."), "{listed}");
    check_common::assert_in_dir(
        ws.path(),
        if skips { "allow" } else { "ask" },
        &["ls -d .*", "ls -ld .*", "du -sh .*", "for f in .*; do echo \"$f\"; done", "ls -d .?*"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["shopt -u globskipdots; grep -r x .*", "sh -c 'grep -r x .*'", "ls -d ../.*", "cat .* > docs/x.md; cat ../x"],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["sed -i s/a/b/ .*", "touch .*", "tee .* < docs/a.md"]);
}

/// Blind red team 91 C O03: `mapfile -t lines < f; for i in "${!lines[@]}"` (each `$((i +
/// 1))`) was asked: only an array the text filled with words was known to be indexed. Any
/// name the text never makes associative (`declare -A`, `readonly -A`, a nameref, a run-time
/// option word) is an indexed array or a scalar, whose keys are numbers; bash's `BASH_CMDS`
/// and `BASH_ALIASES` are associative.
#[test]
fn keys_of_arrays_the_text_never_makes_associative() {
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    let out = check_common::bash_stdout(ws.path(), "readonly -A h=([ab]=1); echo \"${!h[@]}\"");
    assert_eq!(out, "ab\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["mapfile -t lines < src/a.rs\nfor i in \"${!lines[@]}\"; do\n  printf '%3d %s\\n' \"$((i + 1))\" \"${lines[$i]}\"\ndone"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "readonly -A h=([ab]=1); for i in \"${!h[@]}\"; do echo $((i+1)); done",
            "readonly -A h; h[x]=1; for i in \"${!h[@]}\"; do echo $((i+1)); done",
            "declare -A h; h[x]=1; for i in \"${!h[@]}\"; do echo $((i+1)); done",
            "for i in \"${!BASH_CMDS[@]}\"; do echo $((i+1)); done",
        ],
    );
}

/// Red team 92 (A01-A20, T01-T06: 26 bypasses of a build of this session): `bash +O
/// globskipdots -c 'cat .*/x'` turns the option off in the shell it starts, where gate took
/// turning any shell option off as harmless; and tar's `-L N` (`--tape-length`) makes it
/// multi-volume, prompting on its input for the next volume, where `!` starts a shell.
#[test]
fn shell_options_turned_off_and_tar_tape_length() {
    let ws = check_common::red_team_workspace(false);
    let out = check_common::bash_stdout(ws.path(), "bash +O globskipdots -c 'echo .*'");
    assert!(out.split_whitespace().any(|n| n == ".."), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "bash +O globskipdots -c 'cat .*/secret.txt'",
            "bash +O globskipdots -c 'ls -d .*'",
            "timeout 5 bash +O globskipdots -c 'du -sh .*'",
            "bash +O patsub_replacement -c 'x=a; echo ${x/a/&}'",
            "bash -r -c 'cd docs; cat ../x'",
            "tar -cf - -b 1 -L 1 src | wc -c",
            "tar -cf - -b 1 --tape-length=1 src | wc -c",
            "tar cfbL - 1 1 src | wc -c",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["tar -cf - src | wc -c", "bash -O extglob -c 'ls -d src/*'"]);
}

/// Blind red team 87 B L12: `for f in $(git diff --name-only HEAD); do git log -1 --format=%h
/// -- "$f"; done` was asked as a read of a path only known at run time. After `--`, git's
/// history commands match each word against the repository's paths: a path outside it is an
/// error, and no file on disk is read. Where the workspace is the repository's top and the
/// command runs there, such a pathspec is a path in the workspace, decided by the read rules;
/// `git diff` is not one of them (a path outside makes it `--no-index`, which reads files).
#[test]
fn git_history_pathspecs_known_only_at_run_time() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(ws.path(), "git log -1 --format=%h -- /etc/passwd 2>&1 | grep -c outside");
    assert_eq!(out, "1\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for f in $(git diff --name-only HEAD); do\n  printf '%s last touched in ' \"$f\"\n  git log -1 --format=%h -- \"$f\"\ndone",
            "f=$(cat x); git log -1 --format=%h -- \"$f\"",
            "git log -p -- \"$f\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["cd docs; git log -1 -- \"$f\"", "git -C /etc log -- \"$f\"", "git diff -- \"$f\"", "git log \"$f\""],
    );
    // A read rule that could match a name in the workspace decides it.
    let policy = "version: 1\npermissions:\n  deny: [\"Read(**/.env*)\"]\n";
    std::fs::write(ws.path().join("host.yaml"), policy).unwrap();
    check_common::assert_in_dir(ws.path(), "deny", &["git log -p -- \"$f\""]);
}

/// Red team 93 (B01-B11: 11 bypasses): git's log family reads `--decorate-refs X`,
/// `--decorate-refs-exclude X` and `-L X` with its own option parser before it looks for
/// `--`, so `git log --decorate-refs -- --output=Cargo.toml` takes `--` as the value and
/// writes Cargo.toml; gate took that `--` to end the options (and, this session, a run-time
/// word after it as a pathspec).
#[test]
fn git_log_options_whose_value_may_be_the_double_dash() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(
        ws.path(),
        "git log -L -- --output=docs/o.txt >/dev/null 2>&1; test -e docs/o.txt && echo written; rm -f docs/o.txt",
    );
    assert_eq!(out, "written\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "git log --decorate-refs -- --output=Cargo.toml",
            "git log --decorate-refs-exclude -- --output=.env",
            "git log -L -- --output=Cargo.toml",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git show --decorate-refs -- --output=/tmp/x",
            "git whatchanged --decorate-refs -- --output=docs/x.txt",
            "f=--output=/tmp/x; git log --decorate-refs -- \"$f\"",
            "while read -r f; do git log -1 --decorate-refs -- \"$f\"; done < docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["git log --decorate-refs x -- --output=.env", "git log -1 -- \"$f\""],
    );
}
