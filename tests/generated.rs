//! The committed completion scripts and man pages are exactly what the binary generates.
//! To refresh them: `GATE_REGENERATE=1 cargo test --test generated`.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

fn gate(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_gate")).args(args).output().unwrap();
    assert!(o.status.success(), "gate {args:?} failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn compare(rel: &str, generated: &str, stale: &mut Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    if std::env::var_os("GATE_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, generated).unwrap();
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(committed) if committed == generated => {}
        _ => stale.push(rel.to_string()),
    }
}

#[test]
fn completions_and_man_pages_are_up_to_date() {
    let mut stale = Vec::new();
    for (shell, file) in [
        ("bash", "completions/gate.bash"),
        ("zsh", "completions/_gate"),
        ("fish", "completions/gate.fish"),
        ("elvish", "completions/gate.elv"),
        ("powershell", "completions/_gate.ps1"),
    ] {
        compare(file, &gate(&["completions", shell]), &mut stale);
    }
    let main_page = gate(&["man"]);
    assert!(main_page.contains(".TH gate"), "man page is roff");
    for (name, text) in gate::commands::man_pages().unwrap() {
        if name == "gate.1" {
            assert_eq!(text, main_page, "`gate man` prints gate.1");
        }
        compare(&format!("man/{name}"), &text, &mut stale);
    }
    // host.yaml(5) is made from docs/host-yaml.md and installed beside gate(1).
    let section5 = gate(&["man", "host.yaml"]);
    assert!(section5.starts_with(".TH host.yaml 5 "), "host.yaml.5 is in section 5: {}", &section5[..60]);
    compare("man/host.yaml.5", &section5, &mut stale);
    assert!(stale.is_empty(), "stale generated files (run `GATE_REGENERATE=1 cargo test --test generated`): {stale:?}");
}

/// `cargo install` installs `gate` only: every other binary needs the `dev-tools` feature, which
/// only the tests (through the dev-dependency on this package) turn on.
#[test]
fn only_gate_is_installed() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let bins: Vec<&str> = manifest.split("[[bin]]").skip(1).map(|b| b.split("\n[").next().unwrap_or(b)).collect();
    let mut names = Vec::new();
    for b in &bins {
        let name = b.lines().find_map(|l| l.strip_prefix("name = ")).unwrap().trim_matches('"');
        names.push(name);
        if name != "gate" {
            assert!(b.contains("required-features = [\"dev-tools\"]"), "{name} would be installed:\n{b}");
        }
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    on_disk.sort();
    for f in &on_disk {
        assert!(names.contains(&f.as_str()), "src/bin/{f}.rs has no [[bin]] entry, so it would be installed");
    }
    assert!(!manifest.contains("\ndefault = ["), "a default feature would install the development tools");
}

/// The README's "What gate understands" names every program with a complete option table.
#[test]
fn readme_lists_every_tabled_program() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("### What gate understands").expect("the section exists");
    let section = &readme[start..];
    let section = &section[..section[4..].find("\n## ").map(|e| e + 4).unwrap_or(section.len())];
    let words: std::collections::HashSet<&str> =
        section.split(|c: char| c.is_whitespace() || "`,.:;()".contains(c)).filter(|w| !w.is_empty()).collect();
    let missing: Vec<&str> = gate::shell::tabled_programs().into_iter().filter(|p| !words.contains(p)).collect();
    assert!(missing.is_empty(), "README's list misses {missing:?}");
}
