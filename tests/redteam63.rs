//! The red teams of the nineteenth session ("red team 63" in the code's comments). Each
//! regression goes through the real binary (`gate check --json`).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Found by red teams 62 and 63 (over-asks): the names a `find` prints, handed on by `-exec
/// ... {} +`, by an `xargs` it feeds, or by a command's last word `$(find ...)`, start with a
/// start point and so are never options: a program that only reads with its options as
/// written (`sed -n`, `sort`) reads them as files. A program that writes an operand (`uniq IN
/// OUT`), a script that writes, or input gate does not know is still asked; a link or a split
/// name below the start points still leads where it does.
#[test]
fn names_a_find_prints_are_files_never_options() {
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "src/a.rs", "fn main() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "find docs -name '*.md' -exec sed -n 1,5p {} +",
            "find docs -name '*.md' | xargs sed -n 1,5p",
            "find docs -exec sort {} \\;",
            "wc -l $(find src -name '*.rs')",
            "grep -n fn $(find src -name '*.rs') | head",
            "wc -l $(find src -name '*.rs' | sort)",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find docs -exec uniq {} +",
            "find src -exec sort -o {} {} +",
            "find docs -exec sed -n w/x {} +",
            "cat names | xargs sed -n 1p",
            "uniq $(find docs)",
            "cat $(find /etc -name passwd)",
            "sed -i s/a/b/ $(find src -name '*.rs')",
            // Not the last word: a name could be the destination.
            "cp $(find src -name '*.rs') docs/",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["rm $(find docs)", "sed -i s/a/b/ $(find . -name '*.toml')"]);
    // A link below the start point, or a name the split would cut.
    std::os::unix::fs::symlink("/etc/hostname", ws.path().join("src/h")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &["wc -l $(find src)", "find src -exec sed -n 1p {} +"]);
    std::fs::remove_file(ws.path().join("src/h")).unwrap();
    check_common::write_file(ws.path(), "src/x /etc/hostname", "x\n");
    check_common::assert_in_dir(ws.path(), "ask", &["cat $(find src)", "find src | xargs sed -n 1p"]);
    check_common::assert_in_dir(ws.path(), "allow", &["find src -exec sed -n 1p {} +"]);
}

/// Found by red team 62 (an over-ask): a name dated by `$(date +%F)` is one of the names the
/// glob `docs/notes-*.md` matches (each numeric conversion prints digits and `-`, `:`, `+`
/// only), decided as that glob: allowed where one allow rule covers every name, denied where
/// a deny rule could match one, asked through a link the edge finds.
#[test]
fn a_dated_name_is_one_of_the_names_its_glob_matches() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "echo '# x' > \"docs/notes-$(date +%F).md\"",
            "date > docs/$(date +%Y-%m-%d)-log.md",
            "echo hi | tee \"docs/$(date '+%Y%m%d-%H%M%S').md\"",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["echo > docs/.env$(date +%s)", "echo > \".env.$(date +%F)\""]);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "echo > src/$(date +%F).md",
            // Locale text, blanks: not modelled.
            "echo > \"docs/$(date +%c).md\"",
            "echo > \"docs/$(date +%e).md\"",
            "echo > \"docs/$(date +%F)/../../x.md\"",
            "echo > ~/$(date +%F).md",
        ],
    );
    std::fs::create_dir_all(ws.path().join("out")).unwrap();
    std::os::unix::fs::symlink("/tmp", ws.path().join("docs/sub")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &["echo > \"docs/sub/$(date +%F).md\""]);
}

/// Found by red team 63 (asked, not denied): programs gate has no table of run programs and
/// write files their options name (`sdiff --diff-program=rm`, `wget --use-askpass=rm`, `scp -S
/// rm`), and a compiler runs a linker and writes what its options say (`rustc -C linker=rm`,
/// `gcc -aux-info .env`, `-Wl,-Map=.env.map`). Such a call whose words hold a deny rule's
/// words is denied; a compiler's text is scanned as code gate cannot see. Tables added: `ptx
/// -G IN OUT` writes OUT, `git credential-store --file=F` writes F.
#[test]
fn a_program_without_a_table_may_run_what_its_words_name() {
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "deny",
        &[
            "rustc -C linker=rm src/a.rs",
            "gcc -x c -aux-info .env -c -o /dev/null -",
            "gcc -x c - -o /dev/null -Wl,-Map=.env.map",
            "sdiff --diff-program=rm src/a.rs src/lib.rs",
            "diff3 --diff-prog=rm src/a.rs src/lib.rs src/a.rs",
            "wget --use-askpass=rm -O /dev/null http://127.0.0.1:9/",
            "scp -S rm src/a.rs host:/tmp/x",
            "ptx -G src/a.rs .env",
            "git credential-store --file=.env.creds store",
        ],
    );
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "ask",
        &[
            "sdiff src/a.rs src/lib.rs",
            "gcc -o app src/a.c",
            "ptx src/a.rs .env",
            "git rm -n Cargo.toml",
            "git mv --dry src/a.rs .env",
        ],
    );
}

/// Found by red team 63 (over-asks): read-only programs and agents' read-only tools gate did
/// not know, and output options whose file the walker decides as a write.
#[test]
fn more_readers_tools_and_output_options() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "b2sum -l 256 docs/a.md",
            "fmt -w 80 docs/a.md > docs/a-wrapped.md",
            "fmt -72 docs/a.md",
            "iconv -f utf-8 -t ascii//TRANSLIT -o docs/a-ascii.md docs/a.md",
            "tree -L 2 -o docs/tree.md",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["iconv -o .env docs/a.md", "tree -o Cargo.toml"]);
    check_common::assert_in_dir(ws.path(), "ask", &["tree -o src/x", "iconv -o /tmp/x docs/a.md"]);
    let call =
        |tool: &str, args: serde_json::Value| check_common::check_in_dir(ws.path(), tool, &args)["decision"].clone();
    let inside = ws.path().join("docs/a.md").display().to_string();
    assert_eq!(call("NotebookRead", serde_json::json!({ "notebook_path": inside })), "allow");
    assert_eq!(call("NotebookRead", serde_json::json!({ "notebook_path": "/etc/hostname" })), "ask");
    assert_eq!(call("BashOutput", serde_json::json!({ "bash_id": "1" })), "allow");
    assert_eq!(call("list", serde_json::json!({ "path": ws.path().join("docs").display().to_string() })), "allow");
    assert_eq!(call("list", serde_json::json!({ "path": "/etc" })), "ask");
}

/// Found by red teams 62 and 63 (over-asks): a last `cd` that may leave the workspace (`cd src
/// && ...; cd ..`) runs nothing where it lands; unless a trap may run there, or anything
/// comes after it.
#[test]
fn a_last_cd_runs_nothing_where_it_lands() {
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "allow",
        &["cd src && grep -n fn a.rs; cd ..", "cd ..", "cd docs && ls; cd -"],
    );
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "ask",
        &[
            "trap 'cat .env' EXIT; cd /tmp",
            "cd .. && ls",
            "cd ..; cd ws",
            "f() { cd ..; }; f; ls",
            "for d in src docs; do cd $d; ls; cd ..; done",
        ],
    );
}

/// Found by red team 63 (over-asks): names and counts agents' idioms print, spelled in ways
/// gate did not read: an object name git prints beside other text (`$(git merge-base A
/// B)..HEAD` is one word), `git log -1 --format=%H -- PATH`, `grep -rlZ ... | xargs -0`, `for
/// f in $(rg -l ...)`, npm's own aliases (`npm t`, `npm run-script`), `--help` and `--version`
/// of programs checked to print and exit.
#[test]
fn idioms_that_print_names_and_npm_aliases() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn main() {}\n");
    check_common::write_file(ws.path(), "package.json", "{\"scripts\":{\"test\":\"true\"}}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "git diff $(git merge-base HEAD master)..HEAD",
            "git show \"$(git log -1 --format=%H -- src/a.rs)\"",
            "grep -rlZ fn src | xargs -0 wc -l",
            "grep -rlZ fn src | while IFS= read -r -d '' f; do wc -l \"$f\"; done",
            "for f in $(rg -l fn src); do head -3 \"$f\"; done",
            "npm t",
            "npm run-script test",
            "sqlite3 --version",
            "node --help | head -40",
            "make --help",
            "script -V",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // (Unquoted, since red team 71: a vanished operand of a subcommand that reads
            // only drops a revision; `tests/redteam73.rs`.)
            "git -C $(git merge-base HEAD master) log",
            "for f in $(rg -l --pre cat fn src); do head -3 \"$f\"; done",
            "node --help x.js",
        ],
    );
}

/// Found by red team 63 (asked, not denied): the scan of text run unseen read `f"rm x"` and
/// `system"rm x"` as the words `frm` and `systemrm` (quotes removed), and make's recipe
/// prefixes as part of the word (`@rm`, `+rm`). Quotes now also part words, and the prefixes
/// are dropped. A program with no table and no model of its writes is scanned for file names
/// as well (`yq -yi . .env`, `dotnet test --logger "trx;LogFileName=.env"`).
#[test]
fn the_scan_of_unseen_code_reads_quotes_and_recipe_prefixes_apart() {
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "deny",
        &[
            "python3 -c 'import os;os.system(f\"rm x\")'",
            "perl -e 'system\"rm x\"'",
            "make --eval='all:;@rm x'",
            "make -n -f - <<'EOF'\nall:\n\t+rm x\nEOF",
            "yq -yi . .env",
            "dotnet test --logger \"trx;LogFileName=.env\"",
        ],
    );
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "ask",
        &["dotnet build", "python3 -c 'print(\"format\")'", "yq . config.yaml"],
    );
}

/// Found by red teams 62 and 63 (over-asks): `find docs -name '*.md' -exec sed -i ... {} +`
/// (and the xargs and loop forms) writes each name the find finds, which the edge lists now:
/// allowed where each is, denied where one is (`docs/.env.md`, a link to Cargo.toml), asked
/// where one may be more than it seems (a link outside, a hard link) or none is found.
#[test]
fn a_write_of_the_names_a_find_hands_on_is_each_name_it_finds() {
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "docs/ref.md", "# r\n");
    let edit = [
        "find docs -name '*.md' -type f -exec sed -i 's/foo/bar/g' {} +",
        "find docs -name '*.md' | xargs sed -i s/a/b/",
        "for f in $(find docs -name '*.md'); do sed -i s/a/b/ \"$f\"; done",
        "sed -i s/a/b/ $(find docs -name '*.md')",
        "find docs -name '*.md' -exec sed -i s/a/b/ {} \\;",
    ];
    check_common::assert_in_dir(ws.path(), "allow", &edit);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // xargs's replace string is not the find's `{}`.
            "find docs -name '*.md' -exec sed -i s/a/b/ {} +; cat l | xargs -I{} sed -i s/x/y/ {}",
            "find docs -name '*.txt' -exec sed -i s/a/b/ {} +",
            "echo x > docs/b.md; find docs -name '*.md' -exec sed -i s/a/b/ {} +",
        ],
    );
    // (A listing's pattern that a deny rule could match stays final.)
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["find . -name '*.toml' -exec sed -i s/a/b/ {} +", "find . -exec sed -i s/a/b/ {} +"],
    );
    check_common::write_file(ws.path(), "docs/.env.md", "x\n");
    check_common::assert_in_dir(ws.path(), "deny", &edit[..2]);
    std::fs::remove_file(ws.path().join("docs/.env.md")).unwrap();
    std::os::unix::fs::symlink("../Cargo.toml", ws.path().join("docs/l.md")).unwrap();
    check_common::assert_in_dir(ws.path(), "deny", &edit[..2]);
    std::fs::remove_file(ws.path().join("docs/l.md")).unwrap();
    std::os::unix::fs::symlink("/tmp/gate-elsewhere.md", ws.path().join("docs/o.md")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &edit[..2]);
    std::fs::remove_file(ws.path().join("docs/o.md")).unwrap();
    std::fs::hard_link(ws.path().join("Cargo.toml"), ws.path().join("docs/h.md")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &edit[..2]);
}

/// Found by red team 63: a parameter's default names what is written where the variable is
/// unset (`> "${DEST:-Cargo.toml}"`, `F=${F:-.env}; echo >> "$F"`: asked, not denied); and a
/// `/` inside a command substitution is the command's, not a path in the value (`awk -v
/// n="$(wc -l < src/a.rs)"` read `"$(wc -l < src/a.rs)"` as a path: an over-ask).
#[test]
fn defaults_are_written_and_substitutions_are_no_paths() {
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "deny",
        &[
            "echo x > \"${DEST:-Cargo.toml}\"",
            "echo x >> ${E=.env}",
            "ENV_FILE=${ENV_FILE:-.env}; grep -q API_KEY \"$ENV_FILE\" || echo API_KEY=x >> \"$ENV_FILE\"",
        ],
    );
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "ask",
        &["echo x > \"${DEST:-docs/x.md}\"", "F=\"${F:-/etc/passwd}\"; cat $F", "X=\"$(pwd)/../x\" npm test"],
    );
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "src/a.rs", "fn main() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["awk -v n=\"$(wc -l < src/a.rs)\" 'NR==n' src/a.rs", "echo n=\"$(wc -l < src/a.rs)\""],
    );
}

/// Found by red teams 62 and 63 (over-asks, five of them): awk printing to a file it names
/// (`print > "docs/toc.md"`) and sed's `w docs/fns.md` are writes the walker decides, so the
/// program is no more than a reader; `$(date +%F)` prints one value of a fixed shape (digits,
/// `-`, `:`), which stands for it in a script, a path or a variable (`today=$(date +%F)`);
/// `npm ls` prints the installed tree.
#[test]
fn script_writes_dated_values_and_npm_ls() {
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "src/a.rs", "fn main() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "awk '/^#/ {print > \"docs/toc.md\"}' docs/a.md",
            "sed -n '/fn/w docs/fns.md' src/a.rs",
            "awk '{print > FILENAME}' docs/a.md",
            "sed -i \"s/__DATE__/$(date +%F)/\" docs/a.md",
            "out=\"docs/$(date +%F).md\"; git log --oneline -10 > \"$out\"",
            "today=$(date +%Y-%m-%d); echo x > \"docs/notes-$today.md\"",
            "start=$(date +%s); sleep 1; end=$(date +%s); echo $((end-start))",
            "npm ls --depth=0",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["awk '{print > \".env\"}' src/a.rs", "sed -n 'w Cargo.toml' src/a.rs", "echo > .env$(date +%s)"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "awk '{print > FILENAME}' src/a.rs",
            "sed 'w /tmp/x' src/a.rs",
            "awk '{f=\"x\"; print > f}' src/a.rs",
            "echo > \"docs/$(date +%c).md\"",
            "npm ls -g",
            "npm ls ../x",
        ],
    );
}

/// Found by red team 64 (bypasses of this session's first changes, each fixed): a trap set
/// through `eval` runs after a last `cd`; an object name git prints may be nothing, so text
/// after a leading substitution may be an option (`$(git merge-base A B)--output=.env`);
/// iconv opens a charset name with a `/` as a charmap file; a listing whose error text joins
/// its output (`2>&1`, `|&`) hands on the words of its own messages (`find -D rates ...
/// -newer .env`, `-user .env`, grep's `-d X`); and the scan of a program without a table
/// missed a parameter's default (`${CMD-curl ...}`, `${P:-r}m`) and a word read at run time.
#[test]
fn round_64_bypasses_of_the_new_allowances() {
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "deny",
        &[
            "find -D rates docs -name '*.md' -newer .env 2>&1 | xargs sed -i s/K/X/ --",
            "LC_ALL=C find docs -name '*.md' -group Cargo.toml |& xargs sed -i s/x/y/",
            "find -D tree docs -name '*.md' -newer Cargo.toml |& xargs tee --",
            "hyperfine \"${BENCH_CMD-curl -s localhost:8080}\"",
            "hyperfine \"${PREFIX:-r}m -rf build\"",
            "read -r c <<< 'rm -f x'; dbus-launch $c",
            "sops -d secrets.enc.yaml --output ${OUT-.env}",
        ],
    );
    check_common::assert_all_with(
        check_common::RED_TEAM_POLICY,
        "ask",
        &[
            "eval \"trap 'cat passwd' EXIT\"; cd /etc",
            "git log $(git merge-base main HEAD)--output=/tmp/x",
            "iconv -f /etc/passwd -t UTF-8 docs/a.md",
            "LC_ALL=C find docs -newermt /etc/hostname 2>&1 | xargs cat",
            "LC_ALL=C grep -rl x docs -d /etc/hostname 2>&1 | xargs cat --",
            "while read -r f; do cat \"$f\"; done < <(LC_ALL=C find docs -newermt /etc/hostname 2>&1)",
        ],
    );
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "find docs 2>/dev/null | xargs wc -l",
            "while read -r f; do cat \"$f\"; done < <(find docs)",
            "iconv -f utf-8 -t ascii//TRANSLIT docs/a.md",
        ],
    );
}

/// Found by red team 64 (over-asks of the new allowances): grep's and rg's names of files
/// (`grep -rl a docs | xargs sed -i ...`, `sed -i ... $(grep -rl e docs)`), a loop's `>>
/// "$f"`, `-type f` (no directory is handed on), `$(printf '%s\n' NAMES)` and a listing
/// passed through `grep -v` in a loop's words.
#[test]
fn more_listings_whose_found_names_are_written() {
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "docs/ref.md", "# ref\n");
    check_common::write_file(ws.path(), "src/a.rs", "fn main() {}\n");
    std::fs::create_dir_all(ws.path().join("docs/guide")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "grep -rl a docs | xargs sed -i 's/a/b/g'",
            "sed -i 's/e/E/' $(grep -rl e docs)",
            "for f in $(find docs -name '*.md'); do echo '' >> \"$f\"; done",
            "find docs -type f -exec sed -i s/a/b/ {} +",
            "wc -l $(printf '%s\\n' src/a.rs docs/a.md)",
            "for f in $(find docs -name '*.md' | grep -v ref); do sed -i s/a/b/ \"$f\"; done",
            // (xargs's replace string a whole word: one name a line, red team 76.)
            "find docs -type f | xargs -I{} sed -i s/a/b/ {}",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // docs/guide is a directory find hands on.
            "find docs -exec sed -i s/a/b/ {} +",
            "echo $(printf '%s\\n' '/etc/*')",
            "grep -rl a src | xargs sed -i 's/a/b/g'",
        ],
    );
}

/// Found by red team 63 (over-asks): a glob segment that ends in a literal letter (`.*rc`)
/// never matches `.` or `..`, so it does not climb out of its directory; `.*`, `.?` and
/// `.*/x` still may.
#[test]
fn a_dot_glob_ending_in_a_letter_does_not_climb() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(ws.path(), "allow", &["ls -la .*rc", "echo .*.d"]);
    check_common::assert_in_dir(ws.path(), "ask", &["cat ../.*rc"]);
    // (They match `..` only where bash's globskipdots is off: red team 90.)
    let skips = check_common::bash_skips_dots();
    check_common::assert_in_dir(ws.path(), if skips { "allow" } else { "ask" }, &["ls .*", "cat .*/passwd", "ls .?"]);
    let glob = check_common::check_in_dir(ws.path(), "Glob", &serde_json::json!({ "pattern": ".*rc" }));
    assert_eq!(glob["decision"], "allow", "{glob}");
}
