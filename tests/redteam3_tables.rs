//! Red team 3 findings in the per-program tables (issue 15): each case through the real
//! binary (`gate check --json`), against the corpus policy (tests/corpus/host.yaml: denies
//! `Bash(rm *)`, `Bash(curl *)`, `Bash(sudo *)`, `Bash(git reset --hard *)`, writes to
//! `**/.env*`), in a fresh empty workspace. Each test is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use gate::policy::Verdict;
use proptest::prelude::*;
use serde_json::Value;

const POLICY: &str = include_str!("corpus/host.yaml");

fn check(command: &str) -> Value {
    check_common::check_command(POLICY, command)
}

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

// ---- 1. options whose value is a list of files read ----

#[test]
fn redteam3_sort_files0_from_reads_unknown_files() {
    assert_all(
        "ask",
        &[
            "printf '/root/.ssh/id_rsa\\0' | sort --files0-from=-",
            "printf '/etc/hostname\\0' | sort --files0-from -",
            "sort --files0-from=list",
            "sort --files0=list",
            "printf '/root/.ssh\\0' | du -a --files0-from=-",
            "du --files0-from=list",
            "printf '/etc/hostname\\0' | wc --files0-from=-",
            "wc --files0-from=list",
            "find -files0-from list",
        ],
    );
    // Without the option, the same programs on workspace files stay allowed.
    assert_all("allow", &["sort a", "wc -l a b", "du -sh src"]);
}

#[test]
fn redteam3_checksum_check_reads_the_files_its_lists_name() {
    assert_all(
        "ask",
        &[
            "echo '0  /etc/shadow' | md5sum -c",
            "md5sum -c sums",
            "md5sum --check sums",
            "md5sum --ch sums",
            "sha256sum --check sums",
            "sha1sum -c sums",
            "sha512sum -wc sums",
            "b2sum -c sums",
            "cksum --check sums",
            "cksum -c sums",
        ],
    );
    assert_all("allow", &["md5sum a", "sha256sum a b", "cksum a"]);
}

#[test]
fn redteam3_file_files_from_reads_unknown_files() {
    assert_all("ask", &["echo /etc/shadow | file -f -", "file -f names", "file -bf names", "file --files-from names"]);
    assert_all("allow", &["file a"]);
}

// ---- 2. jq modules ----

#[test]
fn redteam3_jq_library_path_is_a_read_of_its_directory() {
    assert_all(
        "ask",
        &[
            "jq -n -L /root/.docker 1",
            "jq -L/etc -n 1",
            "jq -n 1 -L /etc",
            "jq -nL ~/.docker 1",
            "jq --library-path /etc -n 1",
        ],
    );
    // A library directory inside the workspace, with a program that loads nothing, is allowed.
    assert_eq!(check("jq -L lib -n 1")["decision"], "allow");
}

#[test]
fn redteam3_jq_import_and_include_are_unmodelled() {
    for c in [
        "jq -n 'import \"/root/.docker/config\" as $c; $c'",
        "jq -n -L /root/.docker 'import \"config\" as $c; $c'",
        "jq -n 'import \"config\" as $c {search: \"~/.docker\"}; $c'",
        "jq -n 'import \"../../home/.docker/config\" as $c; $c'",
        "jq -n -L / 'include \"etc/hostname\"; .'",
        "jq -n 'include\"x\"; .'",
        "jq -f prog.jq data.json",
        "jq \"$prog\" data.json",
    ] {
        let d = check(c);
        assert_eq!(d["decision"], "ask", "{c}: {d}");
    }
    let d = check("jq -n 'import \"/root/.docker/config\" as $c; $c'");
    assert!(d["reason"].as_str().unwrap().contains("modules"), "{d}");
    // Field names and plain programs stay allowed.
    assert_all("allow", &["jq .import data.json", "jq '.a.include' data.json", "jq -r '.[] | .name' data.json"]);
}

// ---- 3. recursion that follows symbolic links ----

/// A workspace with the corpus policy, `src/a.rs` and directories `a`, `b`, `docs`; when
/// `linked`, also `src/etc -> /etc`, `a/pw -> /etc/passwd` and `docs/pw -> /etc/passwd`.
fn recursion_ws(linked: bool) -> tempfile::TempDir {
    let ws = check_common::workspace(POLICY);
    for d in ["a", "b", "docs"] {
        std::fs::create_dir_all(ws.path().join(d)).unwrap();
    }
    if linked {
        std::os::unix::fs::symlink("/etc", ws.path().join("src/etc")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", ws.path().join("a/pw")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", ws.path().join("docs/pw")).unwrap();
    }
    ws
}

/// Recursion that follows symbolic links is decided where the links below its directories
/// lead (red team 3 found it; red team G of the eleventh round found `find -exec` and `xargs`
/// fed by find doing the same): asked when one leads out of the workspace, allowed when none
/// does (it was asked always before).
#[test]
fn redteam3_recursion_through_symlinks_is_decided_where_the_links_lead() {
    let follows = [
        "grep -R root .",
        "grep -R root",
        "grep -rR root src",
        "grep --dereference-recursive root",
        "grep --dereference root .",
        "rg -L root",
        "rg --follow root",
        "ls -RL",
        "ls -R -L src",
        "ls -LR --color=auto",
        "ls --recursive --dereference",
        "du -aL",
        "du -L src",
        "du --dereference src",
        "tree -l",
        "tree -al src",
        "find -L .",
        "find -L src -name x",
        "find . -follow -name passwd",
        "diff -r a b",
        // diff compares two directories' files without -r too.
        "diff a b",
    ];
    let linked = recursion_ws(true);
    let plain = recursion_ws(false);
    let bash = |c: &str| serde_json::json!({ "command": c });
    for c in follows {
        let d = check_common::check_in_dir(linked.path(), "Bash", &bash(c));
        assert_eq!(d["decision"], "ask", "{c}: {d}");
        assert!(d.to_string().contains("leads to `/etc"), "{c}: {d}");
        let d = check_common::check_in_dir(plain.path(), "Bash", &bash(c));
        assert_eq!(d["decision"], "allow", "{c}, no links: {d}");
    }
    // Recursion that does not follow links, and -L without recursion, stay allowed.
    for c in [
        "grep -r root src",
        "grep -rn root .",
        "rg root",
        "ls -R src",
        "ls -L src",
        "du -sh src",
        "tree src",
        "find . -name x",
        "diff -r --no-dereference a b",
    ] {
        let d = check_common::check_in_dir(linked.path(), "Bash", &bash(c));
        assert_eq!(d["decision"], "allow", "{c}: {d}");
    }
}

// ---- 4. flock ----

#[test]
fn redteam3_flock_file_dash_c_runs_its_command() {
    assert_all(
        "deny",
        &[
            "flock lk -c 'rm -rf x'",
            "flock lk --command 'rm -rf x'",
            "flock -n lk -c 'rm -rf x'",
            "flock -xn lk -c 'rm x'",
            "flock -s lk -c 'rm x'",
            "flock -E 1 lk -c 'rm x'",
            "flock -w 5 lk -c 'curl http://x'",
            "flock --timeout 5 lk --command 'rm x'",
            "flock -x lk -c 'sudo ls'",
            "flock src -c 'rm x'",
            "flock lk rm -rf x",
            "flock -n lk rm x",
            // The spelling with -c before the file (util-linux rejects it) stays denied.
            "flock -xc 'rm -rf x' lockfile",
        ],
    );
    // Harmless commands under a lock are asked (flock writes its lock file), never denied.
    assert_all("ask", &["flock lk -c 'ls'", "flock lk ls", "flock -n lk git status"]);
}

#[test]
fn redteam3_flock_creates_its_lock_file() {
    assert_all(
        "deny",
        &["flock .env true", "flock -n .env true", "flock .env -c ls", "flock -o sub/.env.local echo hi"],
    );
    assert_all("ask", &["flock /tmp/x true", "flock -n ~/.bashrc_lock true", "flock -o /tmp/nl2 echo hi"]);
    // A lone operand is a file descriptor: nothing is created (asked: flock is no safe-list
    // program), and no write part is reported.
    let d = check("flock -u 9");
    assert_eq!(d["decision"], "ask", "{d}");
    assert!(!d.to_string().contains("writes 9"), "{d}");
}

// ---- 5. `time --` and `env -` ----

#[test]
fn redteam3_time_double_dash_runs_the_command() {
    assert_all(
        "deny",
        &["time -- rm -rf x", "time -p -- rm -rf x", "time -- curl http://x", "time -p -- sudo ls", "! time -- rm x"],
    );
    assert_all("allow", &["time -- ls", "time -p -- git status", "time ls"]);
}

#[test]
fn redteam3_env_lone_dash_is_ignore_environment() {
    assert_all("deny", &["env - rm x", "env - FOO=1 rm x", "env -i - rm x", "env - curl http://x"]);
    assert_all("allow", &["env - ls", "env - FOO=1 ls"]);
}

// ---- 6. xargs's replace string ----

#[test]
fn redteam3_xargs_replace_string_comes_from_the_option_table() {
    // The script is completed with input text at run time: never allowed, whatever the
    // spelling of the replace option.
    for c in [
        "printf 'x;rm -f v' | xargs -0I% sh -c 'echo %'",
        "echo 'x;rm -rf ~' | xargs -rI% bash -c 'echo %'",
        "echo 'x;cat /etc/shadow' | xargs -tI% sh -c 'echo %'",
        "echo 'x;rm -f v' | xargs -i -I% sh -c 'echo %'",
        "echo 'x;rm -f v' | xargs -I{} -I% sh -c 'echo %'",
        "echo 'x;rm -f v' | xargs -I% -i sh -c 'echo {}'",
        "echo 'x;rm -f v' | xargs -i% sh -c 'echo %'",
        "echo 'x;rm -f v' | xargs --replace sh -c 'echo {}'",
        "echo 'x;rm -f v' | xargs --replace=% sh -c 'echo %'",
        "echo 'x;rm -f v' | xargs --repl=% sh -c 'echo %'",
        "echo 'x;rm -f v' | xargs -I \"$r\" sh -c 'echo %'",
    ] {
        let d = check(c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
        assert!(d.to_string().contains("completed at run time"), "{c}: {d}");
    }
    // A script without the real replace string is decided as written.
    assert_all("allow", &["echo a | xargs -I% sh -c 'echo {}'", "echo a | xargs -I{} -I% sh -c 'echo {}'"]);
    assert_all("deny", &["echo a | xargs -0I% sh -c 'rm %'", "echo a | xargs -rI% rm %"]);
}

// ---- 7. shopt bundles ----

/// `gate check --json` with a policy of the test's own.
fn check_with(policy: &str, command: &str) -> Value {
    check_common::check_command(policy, command)
}

#[test]
fn redteam3_shopt_option_bundles_set_like_dash_s() {
    let p = "version: 1\npermissions:\n  deny: [ \"Read(**/.env)\", \"Read(**/*.pem)\" ]\n";
    for c in [
        "shopt -qs dotglob; cat *",
        "shopt -sq dotglob; cat *",
        "shopt -s -q dotglob; cat *",
        "shopt -qs nocaseglob; cat *.PEM",
        "shopt -qs extdebug",
        "shopt -qu extdebug",
        "shopt -pqs extdebug",
        "shopt -s \"$opt\"",
        "shopt $flag dotglob",
    ] {
        let d = check_with(p, c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
    // Setting harmless options and querying stay allowed.
    for c in ["shopt -qs nullglob", "shopt -s globstar", "shopt -q dotglob", "shopt -p"] {
        let d = check_with(p, c);
        assert_eq!(d["decision"], "allow", "{c}: {d}");
    }
}

// ---- 8. git: files read and written through its options and subcommands ----

#[test]
fn redteam3_git_glued_file_values_are_reads() {
    assert_all(
        "ask",
        &[
            "git blame -S/root/.aws/credentials f",
            "git blame -wS/root/.ssh/id_rsa f",
            "git blame -S ~/.aws/credentials f",
            "git annotate -S/etc/shadow f",
            "git ls-files -X/etc/shadow",
            "git ls-files -X /etc/shadow",
            "git ls-files --exclude-from=/etc/shadow",
        ],
    );
    // Elsewhere -S is the pickaxe, not a file.
    // (`git ls-files -X .gitignore` opens it from the work tree's top: tests/redteam62.rs.)
    assert_all("allow", &["git log -S/foo", "git blame -w f"]);
}

#[test]
fn redteam3_git_archive_checkout_index_and_bundle_write_their_files() {
    assert_all(
        "deny",
        &[
            "git archive -o .env HEAD",
            "git archive -o.env HEAD",
            "git archive --format=tar -o .env HEAD",
            "git archive --output=.env HEAD",
            "git checkout-index -f .env",
            "git checkout-index -- .env",
            "git checkout-index -fu -- src/.env.local",
            "git checkout-index --prefix=sub/ .env",
            "git bundle create .env HEAD",
            "git bundle create -q .env HEAD",
        ],
    );
    assert_all(
        "ask",
        &[
            "git checkout-index -a",
            "git checkout-index --all -f",
            "git checkout-index --prefix=/tmp/x/ -a",
            "git checkout-index --stdin",
            "git archive -o /tmp/a.tar HEAD",
            "git bundle create /tmp/b HEAD",
        ],
    );
}

#[test]
fn redteam3_git_subcommands_that_run_a_literal_command_decide_it() {
    assert_all(
        "deny",
        &[
            "git rebase -x 'rm x' HEAD~1",
            "git rebase --exec 'rm x' HEAD~1",
            "git rebase --exec='rm x' HEAD~1",
            "git rebase -ix 'rm x' HEAD~1",
            "git rebase -x'rm x' HEAD~1",
            "git bisect run rm x",
            "git bisect run sh -c 'rm x'",
            "git submodule foreach rm x",
            "git submodule foreach 'rm x'",
            "git submodule foreach --recursive 'rm x'",
            "git submodule --quiet foreach 'curl http://x'",
            "git filter-branch --tree-filter 'rm x'",
            "git filter-branch --index-filter 'git rm --cached x' --msg-filter 'rm x' HEAD",
            "git filter-branch --env-filter='rm x'",
            "git difftool -x 'rm x'",
            "git difftool --extcmd 'rm x'",
            "git difftool --extcmd='rm x' HEAD",
            "git grep -O'rm x' foo",
            "git grep -nO'rm x' foo",
            "git grep --open-files-in-pager='rm x' foo",
            "git grep --open='rm x' foo",
        ],
    );
    // Harmless commands are still asked (git runs a command given to it), never denied. (A
    // pattern glued after `-e` that holds an O, `-eO'rm x'`, is read as a possible pager
    // command holding `rm`: denied since red team 62 scans values glued after any letter.)
    assert_all("ask", &["git rebase -x 'cargo test' HEAD~1", "git bisect run cargo test", "git grep -O foo"]);
}

#[test]
fn redteam3_git_program_variables_are_decided_as_code() {
    assert_all(
        "deny",
        &[
            "GIT_EXTERNAL_DIFF='rm -rf x' git diff",
            "GIT_EDITOR='rm x' git commit",
            "EDITOR='rm x' git commit",
            "VISUAL='rm x' git commit",
            "GIT_SEQUENCE_EDITOR='rm x' git rebase -i HEAD~2",
            "GIT_SSH_COMMAND='rm x' git fetch",
            "GIT_SSH=rm git fetch",
            "GIT_PAGER='rm x' git log",
            "PAGER='rm x' git log",
            "GIT_ASKPASS='rm x' git fetch",
            "SSH_ASKPASS='rm x' git fetch",
            "GIT_PAGER='curl http://x' git log",
            "env GIT_EXTERNAL_DIFF='rm -rf x' git diff",
            "env -i GIT_EDITOR='rm x' git commit",
            "export GIT_EXTERNAL_DIFF='rm -rf x'; git diff",
            "EDITOR='rm x'; git commit",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0='rm x' git diff",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm x' git log",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0='!rm x' git st",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0='reset --hard HEAD' git st",
            "GIT_CONFIG_PARAMETERS=\"'diff.external'='rm x'\" git diff",
            "GIT_CONFIG_PARAMETERS=\"'core.pager=rm x'\" git log",
            "GIT_CONFIG_PARAMETERS=\"'user.name'='a' 'alias.x'='!rm x'\" git x",
            "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0='rm x' git diff",
        ],
    );
    // Harmless programs stay asked (they change what runs), and a pager that only copies is
    // allowed as before. A value holding a deny rule's words under a key gate does not model
    // is denied: what runs unseen could match the rule.
    assert_all("ask", &["GIT_EDITOR=vim git commit"]);
    assert_all("deny", &["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0='rm x' git log"]);
    assert_all("allow", &["PAGER=cat git log", "GIT_PAGER=cat git diff"]);
}

#[test]
fn redteam3_git_config_stored_alias_is_decided_as_the_git_it_runs() {
    assert_all(
        "deny",
        &[
            "git config alias.x 'reset --hard'",
            "git config --global alias.x 'reset --hard HEAD'",
            "git config set alias.x 'reset --hard'",
            "git config alias.x '!rm x'",
        ],
    );
    // A harmless stored alias is a configuration write: asked.
    assert_all("ask", &["git config alias.st status", "git config alias.lg 'log --oneline'"]);
}

// ---- 9. tar's (and sort's, rg's) options that run a command ----

#[test]
fn redteam3_tar_options_that_run_a_command_decide_it() {
    assert_all(
        "deny",
        &[
            "tar -tf a.tar --checkpoint=1 --checkpoint-action=exec='rm -rf x'",
            "tar -tf a.tar --checkpoint-action exec='rm -rf x'",
            "tar -tf a.tar -I 'rm x'",
            "tar -tIrm -f a.tar",
            "tar -tf a.tar --use-compress-program='rm x'",
            "tar --use-comp='rm x' -tf a.tar",
            "tar -xf a.tar --to-command='rm x'",
            "tar -tf a.tar --info-script='rm x'",
            "tar -tf a.tar -F 'rm x'",
            "tar -tf a.tar --new-volume-script='curl http://x'",
            "sort --compress-program=rm a",
            "rg --pre 'rm' foo",
        ],
    );
    // Other checkpoint actions run nothing; a harmless program is still asked.
    assert_all("ask", &["tar -tf a.tar --checkpoint-action=dot", "tar -tf a.tar -I zstd", "tar -tf a.tar -I \"$p\""]);
    assert_eq!(check("tar -tf a.tar")["decision"], "allow");
}

// ---- 10. npm's configuration from the environment ----

#[test]
fn redteam3_npm_config_variables_in_any_letter_case_change_what_runs() {
    for c in [
        "Npm_config_node_options='--import=data:text/javascript,1' npm test",
        "Npm_config_script_shell=python3 npm test",
        "nPM_CONFIG_SCRIPT_SHELL=python3 npm run x",
        "npm_Config_script_shell=python3 npm test",
        "env Npm_config_script_shell=python3 npm test",
        "export NPM_config_script_shell=python3; npm test",
    ] {
        let d = check(c);
        assert_eq!(d["decision"], "ask", "{c}: {d}");
        assert!(d.to_string().contains("changes what runs"), "{c}: {d}");
    }
    assert_eq!(check("npm test")["decision"], "allow");
}

#[test]
fn redteam3_npm_and_cargo_options_that_write_outside_are_writes() {
    assert_all(
        "ask",
        &[
            "npm run x --logs-dir=/tmp/x",
            "npm run x --logs-d=/tmp/x",
            "npm test --logs-dir /tmp/x",
            "npm run x --cache=/tmp/x",
            "npm run x --prefix /tmp/o",
            "npm run x -C /tmp/o",
            "cargo test --manifest-path /tmp/o/Cargo.toml",
            "cargo test --manifest-path=../o/Cargo.toml",
        ],
    );
    assert_all("deny", &["npm run x --logs-dir .env", "npm run x --logs-dir=.env"]);
    // Inside the workspace nothing changes. After `--` the words are the script's own, but a
    // path outside handed to a script gate cannot see may be written there (eleventh red team).
    assert_all("allow", &["cargo test --manifest-path sub/Cargo.toml", "npm run x --prefix sub"]);
    assert_all("ask", &["npm run x -- --logs-dir=/tmp/x"]);
}

// ---- 11. git over-asks removed ----

#[test]
fn redteam3_git_read_only_listings_are_allowed() {
    assert_all(
        "allow",
        &[
            "git branch -av",
            "git branch -rv",
            "git branch -avv",
            "git branch -vva",
            "git branch --merg",
            "git branch --merg main",
            "git branch -a --no-merg",
            "git remote -vv",
            "git remote -v show",
            "git symbolic-ref --short HEAD",
            "git symbolic-ref HEAD",
            "git symbolic-ref -q HEAD",
            "git reflog -n 10",
            "git reflog -10",
            "git reflog --date=iso",
            "git reflog --oneline",
            "git reflog show --oneline main",
            "git tag --contains HEAD",
            "git tag -n",
            "git tag -n5",
            "git tag --points-at HEAD",
            "git tag --merged",
            "git tag --sort=-v:refname",
            "git tag --sort=-creatordate -l 'v*'",
            "git config --get-regexp alias",
            // (`--get-urlmatch http.proxy URL` is asked since red team 50: a proxy URL holds
            // a password, `http://user:pass@proxy`, in the user's ~/.gitconfig.)
            "git config --get-urlmatch core.autocrlf https://x",
            "git --no-optional-locks status",
            "git -c color.ui=never log -1",
            "git -c core.quotepath=off status",
            "git -c log.showSignature=false log -1",
            "git -c color.ui=always -c core.quotepath=false diff --stat",
        ],
    );
    // The forms that write or run code stay not allowed.
    for c in [
        "git branch -d x",
        "git branch -av newbranch",
        "git branch -m a b",
        "git branch --mo a b",
        "git remote -v add x y",
        "git symbolic-ref HEAD refs/heads/x",
        "git symbolic-ref -d HEAD",
        "git reflog expire --all",
        "git reflog delete HEAD@{1}",
        "git reflog --output=x",
        "git tag v1",
        "git tag -a v1 -m x",
        "git tag -d v1",
        "git tag --sort=x v1",
        "git config alias.x status",
        "git config edit --get-regexp",
        // (After its first operand git's options end: `--get-regexp alias --edit` is a
        // value pattern, red team 59; before it, `--edit` opens an editor.)
        "git config --edit --get-regexp alias",
        "git -c core.pager=less log",
        "git -c log.showSignature=true log -1",
        "git -c pager.log=less log",
        "git -c color.ui=never commit -m x",
    ] {
        let d = check(c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
    assert_eq!(check("git -c core.pager='rm x' log")["decision"], "deny");
}

// ---- property tests: every generated form of each class ----

fn decide(cmd: &str) -> Verdict {
    let dir = tempfile::tempdir().unwrap();
    check_common::decide_command(&check_common::policy_at(POLICY, dir.path()), cmd)
}

use check_common::shell_quote;

/// Code given to a program to run later or elsewhere, in every form of this round: `A` is the
/// action, single-quoted.
const CODE_FORMS: &[&str] = &[
    "flock lk -c @A@",
    "flock -n lk --command @A@",
    "flock -w 5 -E 1 lk -c @A@",
    "git rebase -x @A@ HEAD~1",
    "git rebase --exec=@A@ HEAD~1",
    "git submodule foreach @A@",
    "git filter-branch --tree-filter @A@",
    "git difftool --extcmd @A@",
    "git grep --open-files-in-pager=@A@ foo",
    "git config alias.x !@A@",
    "tar -tf a.tar -I @A@",
    "tar -tf a.tar --use-compress-program=@A@",
    "tar -xf a.tar --to-command=@A@",
    "tar -tf a.tar --info-script @A@",
    "GIT_EXTERNAL_DIFF=@A@ git diff",
    "GIT_EDITOR=@A@ git commit",
    "GIT_SEQUENCE_EDITOR=@A@ git rebase -i HEAD~2",
    "env GIT_PAGER=@A@ git log",
    "export GIT_SSH_COMMAND=@A@; git fetch",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0=@A@ git diff",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=@A@ git log",
];

const ACTIONS: &[&str] =
    &["rm -rf x", "/bin/rm -rf x", "command rm x", "env rm x", "cd /; rm x", "curl http://x", "ls; rm x"];

/// Commands run directly by a wrapper form of this round: `C` is the command.
const COMMAND_FORMS: &[&str] = &[
    "time -- C",
    "time -p -- C",
    "! time -- C",
    "env - C",
    "env - X=1 C",
    "env -i - C",
    "flock lk C",
    "git bisect run C",
];

const DENIED_COMMANDS: &[&str] = &["rm -rf x", "/bin/rm -rf x", "command rm x", "env rm x", "curl http://x", "sudo ls"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Every form, with every action, is denied by the rule on what would really run.
    #[test]
    fn redteam3_code_given_to_run_is_decided_as_if_it_ran(f in 0..CODE_FORMS.len(), a in 0..ACTIONS.len()) {
        let form = CODE_FORMS[f];
        let action = ACTIONS[a];
        let cmd = if form.contains("!@A@") {
            form.replace("!@A@", &shell_quote(&format!("!{action}")))
        } else {
            form.replace("@A@", &shell_quote(action))
        };
        prop_assert_eq!(decide(&cmd), Verdict::Deny, "{}", cmd);
    }

    #[test]
    fn redteam3_wrapped_commands_are_decided_as_themselves(f in 0..COMMAND_FORMS.len(), a in 0..DENIED_COMMANDS.len()) {
        let cmd = COMMAND_FORMS[f].replace('C', DENIED_COMMANDS[a]);
        prop_assert_eq!(decide(&cmd), Verdict::Deny, "{}", cmd);
    }

    /// xargs's replace string in any spelling (bundled with other flags, glued, repeated: the
    /// last wins): a script that holds it is completed at run time and never allowed.
    #[test]
    fn redteam3_xargs_replace_in_any_spelling_completes_the_script(
        flags in prop::collection::vec(prop::sample::select(&["0", "r", "t", "x"][..]), 0..3),
        earlier in prop::sample::select(&["", "-I{} ", "-i ", "-I@ ", "--replace=@ "][..]),
        last in 0usize..6,
    ) {
        let bundle: String = flags.concat();
        let (opt, r) = match last {
            0 => (format!("-{bundle}I%"), "%"),
            1 => (format!("-{bundle}I %"), "%"),
            2 => (format!("-{bundle}i%"), "%"),
            3 => (format!("-{bundle}i"), "{}"),
            4 => ("--replace=%".to_string(), "%"),
            _ => ("--replace".to_string(), "{}"),
        };
        let cmd = format!("echo 'x;rm -f v' | xargs {earlier}{opt} sh -c 'echo {r}'");
        prop_assert_ne!(decide(&cmd), Verdict::Allow, "{}", cmd);
    }
}
