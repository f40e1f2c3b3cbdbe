//! The red teams of the twenty-first session ("red team 66" and "red team 67" in the code's
//! comments): the over-asks of the replicas of round 66 and the usability round 67 it
//! removes, and what their edges found. Each regression goes through the real binary
//! (`gate check --json`).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Found while removing an over-ask of red team 66 (a bypass of the session's start binary):
/// an object name git prints may be nothing (`git merge-base` of unrelated histories, or of a
/// branch that does not exist) or `HEAD` (`git rev-parse HEAD` in a repository without
/// commits), so `"docs/$(git merge-base A B).env.md"` may write `docs/.env.md`. gate read it
/// as a 40-letter hexadecimal name everywhere; now only where the word is a revision
/// expression (`"$BASE..HEAD"`, `"$SHA":src/a.rs`, `"^$B"`), elsewhere as any text, or
/// unknown where the name may be a whole path segment or start one with a dot.
#[test]
fn an_object_name_git_prints_may_be_nothing() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "BASE=$(git merge-base HEAD master); git log --oneline \"$BASE..HEAD\"",
            "BASE=$(git merge-base HEAD master); git log --oneline \"$BASE\"..HEAD",
            "SHA=$(git rev-parse HEAD); git show \"$SHA\":src/a.rs",
            "B=$(git merge-base HEAD master); git log \"$B...HEAD\" \"^$B\"",
            "BASE=$(git merge-base HEAD master); git diff \"$BASE\" > \"docs/review-$BASE.md\"",
            "git diff $(git merge-base HEAD master)..HEAD",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "echo x > \"docs/$(git merge-base HEAD master).env.md\"",
            "echo x > docs/\"$(git merge-base HEAD master)\".env.md",
            "echo x > \"$(git rev-parse HEAD).env\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // May be `/etc/passwd`; may be `docs/.env.md` (asked: the name is not spelled).
            "B=$(git merge-base HEAD master); cat \"$B/etc/passwd\"",
            "BASE=$(git merge-base HEAD master); echo > \"docs/$BASE.env.md\"",
            // IFS may split the name.
            "IFS=a; git diff $(git merge-base HEAD master)..HEAD",
            // An option, with or without the name.
            "B=$(git merge-base HEAD master); git log \"-$B\"",
        ],
    );
}

/// Found by red team 66 (over-asks): `for ((i=1; i<=3; i++))` passes over those numbers, as
/// `for i in 1 2 3` does, where the body leaves the counter alone (any assignment to it, by
/// `eval`, a function, `read`, an inner loop, makes the loop one gate walks as any other);
/// `seq -w` pads its numbers with zeros.
#[test]
fn a_counted_for_loop_passes_over_its_numbers() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for ((i=1; i<=3; i++)); do sed -n \"${i}p\" src/a.rs; done",
            "for ((i=3; i>0; i--)); do echo \"$i\" > \"docs/n$i.md\"; done",
            "for (( i = 0; i < 4; i += 2 )); do head -n \"$i\" src/a.rs; done",
            "for i in $(seq -w 1 3); do echo x > \"docs/part$i.md\"; done",
            "for ((i=0;i<3;i++)); do i=5; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // The body changes the counter: the passes are not those.
            "for ((i=1; i<=3; i++)); do i=$((i-9)); sed -n \"${i}p\" src/a.rs; done",
            "for ((i=1; i<=3; i++)); do eval \"i=-9\"; sed -n \"${i}p\" src/a.rs; done",
            "f(){ i=-9; }; for ((i=1; i<=3; i++)); do f; sed -n \"${i}p\" src/a.rs; done",
            "for ((i=1; i<=3; i++)); do read i; sed -n \"${i}p\" src/a.rs; done",
            "for ((i=1; i<=3; i++)); do for i in -n; do :; done; sed -n \"${i}p\" src/a.rs; done",
            // More than 8 passes.
            "for ((i=0; i<20; i++)); do sed -n \"${i}p\" src/a.rs; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "for ((i=1; i<=2; i++)); do c=r; [ $i = 2 ] && c=rm; $c x$i; done",
            "for ((i=1; i<2; i++)); do r$(printf m) x; done",
        ],
    );
}
