//! Synthetic policies for benchmarks: `n` rules shaped like a large organisation's (shell
//! rules on many programs, many sharing `git`, a fifth path rules), plus the few rules the
//! benchmarks' calls hit. Pure text generation.

/// A policy of `n` rules shaped like a large organisation's: shell rules on many programs,
/// a fifth of them path rules.
pub fn policy_text(n: usize) -> String {
    let mut lists: [Vec<String>; 3] = Default::default();
    for i in 0..n {
        let r = match i % 5 {
            0 => format!("\"Write(dir{i}/**/*.md)\""),
            1 => format!("\"Bash(tool{i} sub{i} *)\""),
            2 => format!("\"Bash(prog{i} --flag)\""),
            3 => format!("\"Bash(git sub{i} *)\""),
            _ => format!("\"Bash(cmd{i} *)\""),
        };
        lists[i % 3].push(r);
    }
    lists[0].extend([
        "\"Bash(git status)\"".to_string(),
        "\"Bash(cargo test *)\"".into(),
        "\"Bash(npm test)\"".into(),
        "{ tool: write, when: { file_path: \"docs/**/*.md\" } }".into(),
    ]);
    lists[2].extend(["\"Bash(rm *)\"".to_string(), "{ tool: write, when: { file_path: \"**/.env*\" } }".into()]);
    let mut y = String::from("version: 1\npermissions:\n");
    for (k, rules) in ["allow", "ask", "deny"].iter().zip(lists.iter()) {
        y.push_str(&format!("  {k}:\n"));
        for r in rules {
            y.push_str(&format!("    - {r}\n"));
        }
    }
    y
}
