//! Ways to hide a command inside shell text, for property tests and the fuzz target: every
//! form must leave the hidden command a part that gate decides. Pure string building.

/// Wrappers that run their arguments as a command.
pub const WRAPPERS: &[&str] = &[
    "sudo",
    "sudo -u bob",
    "env",
    "env FOO=1",
    "nice -n 5",
    "nohup",
    "timeout 5",
    "time",
    "command",
    "exec",
    "stdbuf -o0",
    "xargs",
    "setsid",
    "ionice -c 3",
    "flock /tmp/l",
    "builtin",
    "doas",
    "timeout -s KILL 9",
    "time -p --",
    "env -",
    "flock -n /tmp/l",
];

/// The number of forms [`compose`] knows.
pub const FORMS: usize = 36;

/// Put `hidden` (a command without single quotes) after or around `visible` in form `form`.
pub fn compose(form: usize, visible: &str, hidden: &str) -> String {
    let w = WRAPPERS[form % WRAPPERS.len()];
    match form % FORMS {
        0 => format!("{visible} && {hidden}"),
        1 => format!("{visible}; {hidden}"),
        2 => format!("{visible} | {hidden}"),
        3 => format!("{visible} || {hidden}"),
        4 => format!("{visible} & {hidden}"),
        5 => format!("{visible}\n{hidden}"),
        6 => format!("{visible} $({hidden})"),
        7 => format!("{visible} `{hidden}`"),
        8 => format!("{visible} \"$({hidden})\""),
        9 => format!("bash -c '{visible}; {hidden}'"),
        10 => format!("sh -c \"{visible} && $(printf %s '{hidden}' >/dev/null; echo) {hidden}\""),
        11 => format!("({visible}; {hidden})"),
        12 => format!("{{ {visible}; {hidden}; }}"),
        13 => format!("if {visible}; then {hidden}; fi"),
        14 => format!("{visible} <({hidden})"),
        15 => format!("{visible} && {w} {hidden}"),
        16 => format!("find . -name x -exec {hidden} {{}} \\; && {visible}"),
        17 => format!("eval '{hidden}'; {visible}"),
        18 => format!("{visible} && {hidden} 2>/dev/null"),
        19 => format!("echo $({visible}; {hidden})"),
        20 => format!("for i in 1 2; do {visible}; {hidden}; done"),
        21 => format!("cat <<EOF\n$({hidden})\nEOF\n{visible}"),
        22 => format!("{visible} ${{X:-$({hidden})}}"),
        23 => format!("while {visible}; do {hidden}; done"),
        24 => format!("f() {{ {hidden}; }}; {visible}"),
        25 => format!("{visible} && \\\n{hidden}"),
        26 => format!("! {hidden} || {visible}"),
        27 => format!("{visible} | {w} {hidden}"),
        28 => format!("case x in x) {hidden};; esac; {visible}"),
        29 => format!("{visible}; bash -lc \"{hidden}\""),
        // Text a shell reads on its input, positional parameters, a variable's value run.
        30 => format!("{visible}; echo '{hidden}' | sh"),
        31 => format!("{visible}; set -- {hidden}; \"$@\""),
        32 => format!("g() {{ \"$@\"; }}; {visible}; g {hidden}"),
        33 => format!("{visible}; cat <<'EOF' | bash\n{hidden}\nEOF"),
        // (printf's format decodes escapes and `%`: doubled, bash reads `hidden` as it is.)
        34 => format!("{visible}\nprintf '{}\\n' | bash", hidden.replace('\\', "\\\\").replace('%', "%%")),
        _ => format!("v='{hidden}'; {visible}; eval \"$v\""),
    }
}
