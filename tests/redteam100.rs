//! The red teams of the thirty-first session ("red team 100" in the code's comments, and the
//! over-asks earlier blind rounds left open that this session fixed). Each regression goes
//! through the real binary (`gate check --json`); where the answer rests on what bash or a
//! program does, bash is asked first.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Red team 100 A B01-B17: an expansion error ends the line it is on and bash goes on with
/// the next one, so what the rest of the line would have done (a `cd`, an assignment, a
/// function) did not happen. gate knew only division by zero, bad octal numbers, `**` and
/// `#`; a syntax error (`$((1 2))`, `$[1 2]`, `$((1+))`), an assignment to a number
/// (`$((1=2))`), a constant bash refuses (`$((1e3))`) and a negative substring length
/// (`${x:0:-5}`) were read as if the line ran on. Now an expansion may fail unless gate proves
/// it cannot: arithmetic of plain numbers, names holding them and operators that cannot err;
/// literal substring bounds; plain subscripts.
#[test]
fn expansion_errors_that_end_the_line() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    // What bash does: the rest of the line is skipped, the next line runs.
    for err in ["$((1 2))", "$[1 2]", "$((1+))", "$((1=2))", "$((1e3))", "${x:0:-5}", "$((08))", "${a[1 2]}"] {
        let out = check_common::bash_script_stdout(ws.path(), &format!("x=ab; : {err}; echo same\necho next"));
        assert_eq!(out, "next\n", "{err}");
    }
    let out = check_common::bash_script_stdout(ws.path(), "declare -i n; n='1 2'; echo same\necho next");
    assert_eq!(out, "next\n");
    let out = check_common::bash_script_stdout(ws.path(), "f() { : $((1 2)); echo in; }; f; echo same\necho next");
    assert_eq!(out, "next\n");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            ": $((1 2)); cd src\nls ..",
            ": $((1 2)); cd src\ncat ../Cargo.toml",
            ": $((1=2)); cd src\nls ..",
            ": $((1+)); cd src\nls -la ..",
            ": $[1 2]; cd src\nls ..",
            ": $((1e3)); cd src\nls ..",
            "x=ab; : ${x:0:-5}; cd src\nls ..",
            "f=/etc\n: $((1 2)); f=docs\nls \"$f\"",
            "f=/etc\n: $((1 2)); f=docs\ncat \"$f/passwd\"",
            "echo $((1 2)); cd src\ngrep -rn fn ..",
            ": $((1 2)); cd src\necho x >> ../docs/x.md",
            "d=..\n: $((1 2)); d=docs\nls $d",
            "a=(1 2); : ${a[1 2]}; cd src\nls ..",
            "x=abc; : ${x:1 2}; cd src\nls ..",
            "declare -i n; n='1 2'; cd src\nls ..",
            "declare -i n=\"1 2\"; cd src\nls ..",
            "OPTIND='1 2'; cd src\nls ..",
            "x=a; : ${!x}; cd src\nls ..",
            "a=a; : $((a)); cd src\nls ..",
            "m=08; : $((m)); cd src\nls ..",
            "f() { : $((1 2)); }\nf; cd src\nls ..",
            "test -v 'a[1 2]'; cd src\nls ..",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "c=rm\n: $((1 2)); c=echo\n$c -f docs/a.md",
            ": $((1 2)); rm() { echo \"$@\"; }\nrm -f docs/a.md",
            "c=curl\n: $((1 2)); c=echo\n$c -s -o /dev/null file:///etc/hostname",
            ": $((1 2)); curl() { echo \"$@\"; }\ncurl -s file:///etc/hostname",
            "c=sudo\n: $((1 2)); c=echo\n$c -n true",
        ],
    );
    // Arithmetic gate proves cannot fail leaves the line running on.
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "n=3; echo $((n * 2 + 1)); cd src\nls",
            "echo $(( (1 + 2) * 3 / 2 )); cd src\ncat a.rs",
            "x=abcdef; echo ${x:1:2} ${x: -2}; cd src\nls",
            "a=(1 2); echo ${a[1]} ${#a[@]}; cd src\nls",
            "f() { echo $((1 + 2)); }; f; cd src\nls",
        ],
    );
}

/// Red team 100 A D01, D02: `declare -c` capitalises what a name is given and `-l` lowers
/// it, so `f=cargo.toml` stores `Cargo.toml` and `f=.ENV` stores `.env`; a write of `$f` was
/// asked where a deny rule matches what is written.
#[test]
fn case_attributes_change_the_value_written() {
    let ws = check_common::red_team_workspace(false);
    let out = check_common::bash_stdout(ws.path(), "declare -c f; f=cargo.toml; declare -l g; g=.ENV; echo $f $g");
    assert_eq!(out, "Cargo.toml .env\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "declare -c f; f=cargo.toml; echo x >> $f",
            "declare -l f; f=.ENV; echo x >> $f",
            "declare -l f; f=.ENV; echo x >> \"$f\"",
            "typeset -u f; f=cargo.toml; declare -c f; f=cargo.toml; echo x > \"$f\"",
        ],
    );
    // A read-only name keeps the value it had: still decided by it.
    check_common::assert_in_dir(ws.path(), "deny", &["readonly f=Cargo.toml; f=docs/a.md; echo x > \"$f\""]);
    check_common::assert_in_dir(ws.path(), "ask", &["declare -u f; f=docs/a.md; echo x >> \"$f\""]);
}

/// Red teams 94 C C9-01..C9-03 and 100 B C9-01, C9-02: a listing's names kept in a variable
/// (`f=$(ls src/*.rs | head -1); cat "$f"`, `files=$(git ls-files '*.rs'); wc -l $files`)
/// were asked where the same substitution in place was allowed. The variable is now that
/// substitution, for the commands that read it where it is used.
#[test]
fn listing_names_held_in_a_variable() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::write_file(ws.path(), "src/lib.rs", "fn lib() {}\n");
    let out = std::process::Command::new("git").args(["add", "."]).current_dir(ws.path()).output().unwrap();
    assert!(out.status.success());
    let out = check_common::bash_stdout(ws.path(), "files=$(git ls-files '*.rs'); wc -l $files | tail -1");
    assert_eq!(out.trim(), "2 total");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "f=$(ls src/*.rs | head -1); cat \"$f\"",
            "f=$(ls src/*.rs | head -1)\ncat \"$f\"",
            "files=$(git ls-files '*.rs'); wc -l $files",
            "latest=$(ls -t docs/*.md | head -1); cat \"$latest\"",
            "f=$(find src -name '*.rs' | head -1); wc -l \"$f\"",
            "files=$(git ls-files '*.rs'); for f in $files; do grep -c fn \"$f\"; done",
            "f=$(ls src/*.rs | head -1) && head -5 \"${f}\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "f=$(ls src/*.rs | head -1); cat \"$f.bak\"",
            "f=$(ls src/*.rs | head -1); f=/etc/passwd; cat \"$f\"",
            "f=$(ls src/*.rs | head -1); sed -i s/a/b/ \"$f\"",
            "f=$(ls ../ | head -1); cat \"$f\"",
            "f=$(find / -name passwd | head -1); cat \"$f\"",
            "f=$(find src -print0); cat \"$f\"",
            "x() { f=/etc/passwd; }; f=$(ls src/*.rs | head -1); x; cat \"$f\"",
            "f=$(ls -a | head -1); cat \"$f\"",
            "f=$(ls src/*.rs | head -1); cd /etc; cat \"$f\"",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["f=$(ls src/*.rs | head -1); rm \"$f\""]);
    // Through a link out of the workspace, as the substitution in place.
    std::os::unix::fs::symlink("/etc/passwd", ws.path().join("lnk")).unwrap();
    check_common::write_file(ws.path(), "src/lnk", "");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["f=$(ls src | head -1); cat \"$f\"", "f=$(ls src | tail -1); cat $f"],
    );
}

/// Whether this machine's `wc` is GNU coreutils 8.25 or later, which quotes a name holding a
/// line end (one line a file): gate reads `wc`'s first field as a count only there.
fn gnu_wc_quotes() -> bool {
    let out = std::process::Command::new("wc").arg("--version").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(v) = text.lines().next().and_then(|l| l.strip_prefix("wc (GNU coreutils) ")) else { return false };
    let mut parts = v.trim().split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= (8, 25)
}

/// Red teams 82 C A67, 84 C O48, 91 C O08, 100 C C3-06 (denied there): `while read -r n _;
/// do total=$((total + n)); done < <(wc -l src/*.rs)` was asked, as arithmetic over a value
/// read at run time. wc prints a count first on every line (GNU wc quotes a name holding a
/// line end, so a name never starts a line of its own): the first name `read` fills is a
/// number.
#[test]
fn counts_read_from_wc() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::write_file(ws.path(), "src/lib.rs", "fn lib() {}\n\n");
    // What wc prints for a name holding a line end: quoted, on one line.
    check_common::write_file(ws.path(), "src/x\n[$(id)].rs", "\n");
    let out = check_common::bash_stdout(ws.path(), "wc -l src/*.rs | while read -r n _; do echo \"<$n>\"; done");
    if gnu_wc_quotes() {
        assert_eq!(out, "<1>\n<2>\n<1>\n<4>\n");
    }
    std::fs::remove_file(ws.path().join("src/x\n[$(id)].rs")).unwrap();
    let counted = [
        "total=0; while read -r c _; do total=$((total + c)); done < <(git ls-files | xargs wc -l | head -n -1); echo \"total lines: $total\"",
        "total=0\nwhile read -r n _; do\n  total=$(( total + n ))\ndone < <(wc -l src/*.rs | head -n -1)\necho \"$total\"",
        "wc -l src/*.rs | while read -r n f; do echo $((n * 2)) \"$f\"; done",
    ];
    let expect = if gnu_wc_quotes() { "allow" } else { "ask" };
    check_common::assert_in_dir(ws.path(), expect, &counted);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // (The whole line, name and all.)
            "total=0; while read -r n; do total=$((total + n)); done < <(wc -l src/*.rs)",
            "total=0; while IFS=/ read -r n _; do total=$((total + n)); done < <(wc -l src/*.rs)",
            "total=0; while read -r n _; do total=$((total + n)); done < <(wc -l src/*.rs 2>&1)",
            "total=0; while read -r n _; do total=$((total + n)); done < <(wc -l src/*.rs | sort -k2)",
            "total=0; while read -r n f; do cat \"$f\"; done < <(wc -l src/*.rs)",
            "total=0; while read -r n _; do total=$((total + n)); done < <(cat docs/a.md)",
        ],
    );
}

/// Red teams 92 B O05, O06 and 94 B A21: `size=$(du -sk src | cut -f1)` and `count=$(jq
/// '.scripts | length' package.json)` are numbers, which arithmetic reads without running
/// anything.
#[test]
fn numbers_du_and_jq_print() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::write_file(ws.path(), "package.json", "{\"scripts\": {\"a\": \"x\", \"b\": \"y\"}}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "size=$(du -sk src | cut -f1); echo \"$((size / 4)) blocks\"",
            "x=$(du -s src | cut -f1); (( x > 0 )) && echo nonempty",
            "count=$(jq '.scripts | keys | length' package.json); echo $((count + 1))",
            "n=$(jq '. | to_entries | length' package.json); echo $((n))",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // (A glob's names may hold a line end, which du prints as it is; `-h` prints `4.0K`.)
            "x=$(du -s src/* | cut -f1); (( x > 0 )) && echo nonempty",
            "x=$(du -sh src | cut -f1); (( x > 0 )) && echo nonempty",
            "x=$(du -sa src | cut -f1); echo $((x))",
            // (`,` makes outputs `length` does not see.)
            "x=$(jq '.a | length, \"b\"' package.json); echo $((x))",
            "x=$(jq -f f.jq package.json); echo $((x))",
            "x=$(jq '.a | length' /etc/passwd); echo $((x))",
            // (A number's length is itself, and jq 1.6 prints `NaN`'s as `null`: session 32.)
            "x=$(jq '.scripts | length' package.json); echo $((x))",
        ],
    );
}

/// Red team 101 A (the attack of this session's first changes): `${ x}` is a bad
/// substitution that ends the line (the parser reads it as `${x}`); `du -sc`, two du
/// operands, `jq '.[] | length'`, two jq files and `date +%s.%N` print several numbers or a
/// decimal, which arithmetic refuses (a bare name held one number, or nothing, only where gate
/// knows it is one integer); `k="-9"; a[k]=x` is a bad subscript; `declare -i "n"` is
/// `declare -i n`. Each ended a line gate read as running on. And bash 5.2 keeps a `-lc`
/// value as given.
#[test]
fn more_errors_that_end_the_line() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::write_file(ws.path(), "package.json", "{\"scripts\": {\"a\": \"x\"}, \"b\": [1, 2]}\n");
    for line in [
        ": ${ x}",
        "n=$(du -sc src | cut -f1); : $((n + 1))",
        "n=$(jq '.[] | length' package.json); : $((n + 1))",
        "n=$(date -r src/a.rs +%s.%N); : $((n + 1))",
        "k=\"-9\"; a[k]=x",
        "declare -i \"n\"; n=\"1 2\"",
    ] {
        let out = check_common::bash_script_stdout(ws.path(), &format!("{line}; echo same\necho next"));
        assert_eq!(out, "next\n", "{line}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            ": ${ x}; cd src\nls ..",
            ": \"${ x}\"; cd src\nls ..",
            "n=$(du -sc src | cut -f1); : $((n + 1)); cd src\nls ..",
            "n=$(du -s src docs | cut -f1); : $((n + 1)); cd src\nls ..",
            "n=$(jq '.[] | length' package.json); : $((n + 1)); cd src\nls ..",
            "n=$(jq '.scripts | length' package.json package.json); : $((n + 1)); cd src\nls ..",
            "n=$(date -r src/a.rs +%s.%N); : $((n + 1)); cd src\nls ..",
            "k=\"-9\"; a[k]=x; cd src\nls ..",
            "k=$((0-9)); a[k]=x; cd src\nls ..",
            "k='-9'; a[k]=x; cd src\nls ..",
            "declare -i \"n\"; n=\"1 2\"; cd src\nls ..",
            "declare -lc f; f=CARGO.TOML; echo hi > \"$f\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            ": ${ x}; rm(){ :; }\nrm -f m",
            "f=.env; : ${ x}; f=docs/x.md\necho hi > $f",
            ": ${ x}; curl(){ :; }\ncurl -s http://127.0.0.1:9/",
            "n=$(du -sc src | cut -f1); : $((n + 1)); rm(){ :; }\nrm -f m",
            "f=.env; k=\"-9\"; a[k]=x; f=docs/x.md\necho hi > $f",
        ],
    );
    // Text that is no expansion: a quoted here-document's body, single quotes.
    check_common::assert_in_dir(ws.path(), "allow", &["cat > docs/x.md <<'EOF'\nconsole.log(`${a.b}`)\nEOF"]);
}

/// Red teams 80 C O35-O38 and 100 C C3-07: `sed -n "${n}p" F` with n a count, `sed -n "$((
/// $(wc -l < F) - 2 )),\$p" F`: a sed script whose only run-time parts are numbers is read with
/// each number as `1` (an address, a count or a flag whatever its digits).
#[test]
fn sed_scripts_with_numbers_known_only_at_run_time() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/lib.rs", "a\nb\nc\nd\n");
    let out = check_common::bash_stdout(ws.path(), "sed -n \"$(( $(wc -l < src/lib.rs) - 2 )),\\$p\" src/lib.rs");
    assert_eq!(out, "b\nc\nd\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "n=$(grep -c '' docs/a.md); sed -n \"${n}p\" docs/a.md",
            "n=$(wc -l < docs/a.md); sed -i \"${n}d\" docs/a.md",
            "sed -n \"$(( $(wc -l < src/lib.rs) - 2 )),\\$p\" src/lib.rs",
            "n=5; m=8; sed -n \"${n},${m}p\" docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "n=$(wc -l < docs/a.md); sed -n \"${n}w /etc/x\" docs/a.md",
            "n=$(wc -l < docs/a.md); sed -n \"${n}e\" docs/a.md",
            "n=$(wc -l < docs/a.md); sed -n 1p \"..${n}/etc/passwd\"",
            "n=$(wc -l < docs/a.md); sed -n \"${n}r /etc/passwd\" docs/a.md",
            "x=$(cat docs/a.md); sed -n \"${x}p\" docs/a.md",
        ],
    );
}

/// Red team 101 B A06-A10, E01: counts through what keeps them numbers (`| tr -d ' '`, `||
/// true`, `wc -l F | awk '{print $1}'`) and `grep -c fn "$f"` of a glob's name in a loop were
/// asked in arithmetic.
#[test]
fn counts_through_filters_that_keep_them_numbers() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::write_file(ws.path(), "src/lib.rs", "fn lib() {}\nfn b() {}\n");
    let out = check_common::bash_stdout(
        ws.path(),
        "total=0; for f in src/*.rs; do c=$(grep -c fn \"$f\"); total=$((total + c)); done; echo \"$total\"",
    );
    assert_eq!(out, "3\n");
    let mut allowed = vec![
        "n=$(wc -l < src/a.rs | tr -d ' '); echo \"$((n + 1)) lines incl. trailer\"",
        "n=$(grep -c fn src/a.rs || true); echo \"fns: $((n + 0))\"",
        "n=$(git log --oneline | wc -l | tr -d ' '); [[ $n -gt 0 ]] && echo \"$n commits\"",
        "total=0; for f in src/*.rs tests/*.rs; do c=$(grep -c fn \"$f\"); total=$((total + c)); done; echo \"$total\"",
    ];
    if gnu_wc_quotes() {
        allowed.push("n=$(wc -l src/lib.rs | awk '{print $1}'); echo $((n * 2))");
    }
    check_common::assert_in_dir(ws.path(), "allow", &allowed);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "f=$(cat docs/a.md); c=$(grep -c root \"$f\"); echo $((c))",
            "n=$(wc -l src/a.rs | awk '{print $2}'); echo $((n))",
            "n=$(cat docs/a.md | tr -d ' '); echo $((n))",
        ],
    );
}

/// Red team 102 A: bash wraps a number past 2^63 - 1 without a word (`1/18446744073709551616`
/// divides by 0, a subscript `18446744073709551615` is -1); a carriage return is no blank in
/// arithmetic; `shopt -s fail''glob` turns failglob on; a sed script's `$(du -s a b | cut -f1)`
/// is two lines, and a line end there starts a sed command. Each ended a line gate read as
/// running on, or ran a command gate did not see.
#[test]
fn big_numbers_carriage_returns_failglob_and_multi_line_sed_numbers() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::write_file(ws.path(), "docs/guide.md", "# g\n");
    for line in [
        ": $((1/18446744073709551616))",
        "x=abc; : ${x:0:18446744073709551611}",
        "b=(); b[18446744073709551615]=x",
        ": $((1\r+1))",
        "shopt -s fail''glob; : nomatch*",
    ] {
        let out = check_common::bash_script_stdout(ws.path(), &format!("{line}; echo same\necho next"));
        assert_eq!(out, "next\n", "{line:?}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            ": $((1/18446744073709551616)); cd src\nls ..",
            ": $[1/18446744073709551616]; cd src\nls ..",
            "x=abc; : ${x:0:18446744073709551611}; cd src\nls ..",
            "b=(); b[18446744073709551615]=x; cd src\nls ..",
            ": $((1\r+1)); cd src\nls ..",
            "x=abc; : ${x:0:\r2}; cd src\nls ..",
            "shopt -s fail''glob\n: nomatch*; cd src\nls ..",
            "sed -n \"1a $(du -s docs src | cut -f1)!r /etc/hostname\" docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "f=.env; : $((1/18446744073709551616)); f=docs/x.md\necho hi > $f",
            ": $((1%18446744073709551616)); rm(){ :; }\nrm -f docs/a.md",
            "n=18446744073709551615\nb=(); b[n]=x; rm(){ :; }\nrm -f docs/a.md",
            "x=abc; : ${x:\r1}; rm(){ :; }\nrm -f docs/a.md",
            "shopt -s \"fail\"glob\n: nomatch*; rm(){ :; }\nrm -f docs/a.md",
            "sed \"1a $(du -s docs src | cut -f1)w .env\" docs/a.md",
            "sed \"1a $(du -s docs src | cut -f1)!e rm -f docs/guide.md\" docs/a.md",
            "n=$(du -s docs src | cut -f1)\nsed \"1a ${n}!e rm -f docs/guide.md\" docs/a.md",
        ],
    );
}

/// Red team 103 A (26 bypasses): a compound assignment's arithmetic key (`a=([1/0]=x)`), an
/// integer array's element given text (`declare -ai a; a[0]="1 2"`), `declare -i`/`readonly`
/// spelled so no reading of the text finds it (`declare $'-i' n`, `declare -i{,} n`,
/// `readonly{,} r`, a line continuation), `shopt -s "fail${e}glob"`, `${r=W}` of a read-only
/// `r`: each ended a line gate read as running on. Every line is now read command by command
/// with what the walk learned on the way.
#[test]
fn errors_that_end_the_line_however_spelled() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    for line in [
        "a=([1/0]=x)",
        "declare -ai a\na[0]=\"1 2\"",
        "declare $'-i' n\nn=\"1 2\"",
        "declare -i{,} n\nn=\"1 2\"",
        "readonly{,} r\nr=1",
        "e=; shopt -s \"fail${e}glob\"\n: src/zz*",
        "readonly r\necho \"${r=docs}\"",
    ] {
        let out = check_common::bash_script_stdout(ws.path(), &format!("{line}; echo same\necho next"));
        assert_eq!(out, "next\n", "{line}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "a=([1/0]=x); cd src\nls ..",
            "a=([08]=1); cd src\nls ..",
            "declare -ai a\na[0]=\"1 2\"; cd src\nls ..",
            "declare \\\n -i n\nn=\"1 2\"; cd src\nls ..",
            "declare $'-i' n\nn=\"1 2\"; cd src\nls ..",
            "declare -i{,} n\nn=\"1 2\"; cd src\nls ..",
            "readonly{,} r\nr=1; cd src\nls ..",
            "declare $'-r' r\nr=1; cd src\nls ..",
            "e=; shopt -s \"fail${e}glob\"\n: src/zz*; cd src\nls ..",
            "shopt -s $'\\x66ailglob'\n: src/zz*; cd src\nls ..",
            "readonly r\necho \"${r=docs}\"; cd src\nls ..",
            "readonly r\n: \"${r[0]=docs}\"; cd src\nls ..",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "a=([1/0]=x); rm(){ :; }\nrm -f src/a.rs",
            "a+=([09]=x); rm(){ :; }\nrm -f src/a.rs",
            "declare -i n\nn[0]=\"1 2\"; rm(){ :; }\nrm -f src/a.rs",
            "readonly{,} r\nr=1; rm(){ :; }\nrm -f src/a.rs",
            "readonly r\necho \"${r:=x}\"; rm(){ :; }\nrm -f src/a.rs",
            "f=.env\nreadonly r\necho \"${r=x}\"; f=docs/x.md\necho hi > \"$f\"",
        ],
    );
}

/// Red teams 103 B C3-05 and 103 C C9-01: a counter assigned in an `if` branch lost its value
/// (`errors=0; if ...; then errors=$((errors + 1)); fi; echo $errors` was asked), and `seq 1 5 |
/// while read i; do echo $i; done` read `$i` as any text.
#[test]
fn numbers_through_branches_and_read_loops() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "errors=0; if true; then errors=$((errors+1)); fi; echo $errors",
            "errors=0; for f in src/*.rs; do if ! grep -q '^use' \"$f\"; then errors=$((errors + 1)); fi; done; echo \"$errors files without use\"",
            "seq 1 5 | while read i; do echo $i; done",
            "seq 1 5 | while read i; do sed -n \"${i}p\" src/a.rs; done",
            "cargo --version && rustc --version",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "x=0; if true; then x=$(cat docs/a.md); fi; echo $x",
            "cat docs/a.md | while read i; do echo $i; done",
            "seq 1 5 | while IFS= read i; do echo $i; done",
            "cargo +nightly --version",
        ],
    );
    // rustup runs the toolchain a `rust-toolchain.toml` names.
    check_common::write_file(ws.path(), "rust-toolchain.toml", "[toolchain]\npath = \"/tmp\"\n");
    check_common::assert_in_dir(ws.path(), "ask", &["cargo --version", "cd src && rustc -V"]);
}

/// Red team 104 A (18 bypasses, one flaw): the stage before `while read` was read as numbers
/// from its words joined, so a quoted `'x | seq 1'` read as a pipeline ending in `seq`; `i`
/// then held `x`, which arithmetic evaluates, running the command in `x`'s subscript.
#[test]
fn a_quoted_pipeline_is_no_number_listing() {
    let ws = check_common::red_team_workspace(true);
    let marker = ws.path().join("m");
    std::fs::write(&marker, "").unwrap();
    let out = check_common::bash_stdout(
        ws.path(),
        "x='a[$(rm -f m)]'; echo 'x | seq 1' | while read i _; do echo $((i)); done 2>/dev/null; ls m 2>&1",
    );
    assert!(out.contains("No such file"), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "x='a[$(rm -f m)]'; echo 'x | seq 1' | while read i _; do echo $((i)); done",
            "x='a[$(rm -f m)]'; echo 'x | wc -l' | while read i _; do echo $((i)); done",
            "x='a[$(rm -f m)]'; date '+x | seq 1' | while read i _; do echo $((i)); done",
            "x='a[$(rm -f m)]'; echo 'x|seq 1' | while read i; do echo $((i)); done",
            "x='a[$(echo K=pwned > .env)]'; echo 'x | seq 1' | sort | while read i _; do echo $((i)); done",
        ],
    );
}

/// Red team 105 A (13 bypasses, one flaw): the speed gate looked at a text command by command
/// only where it held `$`, `[`, `=`, a backquote or `shopt`; `for OPTIND in 1/0` and `declare
/// -i n; for n in 08` assign without any, and the error ends the line.
#[test]
fn loops_into_integer_names_end_the_line() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    let out = check_common::bash_script_stdout(ws.path(), "for OPTIND in 1/0; do :; done; echo same\necho next");
    assert_eq!(out, "next\n");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "for OPTIND in 1/0; do :; done; cd src\nls ..",
            "for HISTCMD in 1/0; do :; done; cd src\nls ..",
            "declare -i c; case 1 in 1) for c in 09; do :; done;; esac; pushd src\nls ..",
            "f() { for OPTIND in 1/0; do :; done; }; f; cd src\nls ..",
            "if true; then for OPTIND in 08; do :; done; fi; cd src\nls ..",
            "declare -i n\nfor n in 08; do :; done; cd src\nls ..",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "declare -i n; for n in 08; do :; done; rm() { echo skip; }\nrm -f victim",
            "for OPTIND in 1/0; do :; done; curl() { :; }\ncurl -s file:///etc/hostname",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["rustfmt --version"]);
}

/// Red team 106 A (16 bypasses): `declare -i _` makes bash evaluate every command's last word
/// as arithmetic (a subscript's command runs, a bad one ends the line); `${#a[-9]}` and
/// `${a[-9]:=x}` end the line where `${a[-9]}` goes on. A negative subscript, or arithmetic
/// that may be one, is no longer sure.
#[test]
fn the_last_word_variable_and_negative_subscripts() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    std::fs::write(ws.path().join("victim"), "").unwrap();
    let out = check_common::bash_script_stdout(
        ws.path(),
        ": 1; declare -i _; echo 'a[$(rm -f victim)]' 2>/dev/null\nls victim 2>&1",
    );
    assert!(out.contains("No such file"), "{out}");
    std::fs::write(ws.path().join("victim"), "").unwrap();
    for line in ["a=(1 2 3); : ${#a[-9]}", "a=(1 2 3); : \"${a[-9]:=x}\""] {
        let out = check_common::bash_script_stdout(ws.path(), &format!("{line}; echo same\necho next"));
        assert_eq!(out, "next\n", "{line}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            ": 1; declare -i _; echo 'a[$(rm -f victim)]'",
            ": 1; typeset -i _; ls 'a[$(rm -f victim)]'",
            "declare -i _\n: 'a[$(curl -sS http://127.0.0.1:9/)]'",
            "a=(1 2 3); echo ${#a[-4]}; rm(){ :; }\nrm -f victim",
            "a=(1 2 3); echo \"${a[-9]:=x}\"; x=echo\n$x rm -f victim",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "declare -i _\nls ./; cd src\nls ..",
            "a=(1 2 3); : ${#a[-9]}; cd src\nls ..",
            "x=abc; echo ${#x[-2]}; cd src\nls ..",
            "a=(1 2 3); v=\"${a[-9]=x}\"; cd src\nls ..",
        ],
    );
}

/// Review of red team 106: functions that call each other were read once for every order of
/// them (nine took minutes); each body is read once now. And a value of `-` or `--` is no
/// number.
#[test]
fn functions_that_call_each_other_are_read_once() {
    let ws = check_common::red_team_workspace(true);
    let names: Vec<String> = (0..9).map(|i| format!("f{i}")).collect();
    let defs: Vec<String> = names
        .iter()
        .map(|a| format!("{a}() {{ {}; }}", names.iter().filter(|b| *b != a).cloned().collect::<Vec<_>>().join(" ; ")))
        .collect();
    let command = format!("{}; x=$y; f0", defs.join("; "));
    let d = check_common::command_in_dir(ws.path(), &command);
    assert_ne!(d["decision"], "allow", "{d}");
    check_common::assert_in_dir(ws.path(), "ask", &["x=--; if true; then x=1; fi; cat $x"]);
}
