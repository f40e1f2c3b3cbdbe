//! The red teams of the twenty-eighth session ("red team 80" in the code's comments, and the
//! cases left open by earlier rounds this session fixed). Each regression goes through the
//! real binary (`gate check --json`); where the answer rests on what bash or a program does,
//! bash is asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Left by red team 76 (C A41: denied): `find . -path ./node_modules -prune -o -name '*.md'
/// -print`, the way agents skip a directory. Branches before the last that only prune print
/// nothing once the expression has an action, so only the last branch's tests let names
/// through; without an action in the last branch, find prints the pruned names too.
#[test]
fn find_prune_branches() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "docs/.env.md", "x\n");
    check_common::write_file(ws.path(), "docs/guide.md", "# guide\n");
    // What find really prints: the pruned `.env.md` only without an action.
    let printed = check_common::bash_stdout(ws.path(), "find docs -name '.env*' -prune -o -name '*.md' -print | sort");
    assert!(!printed.contains(".env") && printed.contains("docs/a.md"), "{printed}");
    let printed = check_common::bash_stdout(ws.path(), "find docs -name '.env*' -prune -o -name '*.md' | sort");
    assert!(printed.contains("docs/.env.md"), "{printed}");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "find docs -path docs/x -prune -o -name 'a*' -print | xargs sed -i 's/ref/Ref/'",
            "find docs -name '*.rs' -prune -o -name 'g*.md' -exec sed -i 's/ref/Ref/' {} +",
            "find docs \\( -name x -o -name y \\) -prune -o -name 'a*.md' -print0 | xargs -0 sed -i 's/ref/Ref/'",
            "find . -path ./node_modules -prune -o -name '*.rs' -print | xargs wc -l",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            // No action in the last branch: the pruned names are printed.
            "find docs -name '.env*' -prune -o -name 'a*' | xargs sed -i s/a/b/",
            // A branch after the printing one prints everything.
            "find docs -name x -prune -o -name 'a*' -print -o -print | xargs sed -i s/a/b/",
            "find docs -name x -prune -o -name 'a*' -print , -print | xargs sed -i s/a/b/",
            // An earlier branch that prints.
            "find docs -name '.env*' -print -o -name 'a*' -print | xargs sed -i s/a/b/",
        ],
    );
}
