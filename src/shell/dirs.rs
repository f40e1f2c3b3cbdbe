//! The shell's directory state as the walker follows it (issue 15 class 8): the directory
//! commands run in, `OLDPWD`, and the `pushd`/`popd` stack, each known or not. Only `cd`,
//! `pushd`, `popd` and `dirs` move it; the walker decides where a change may not have
//! happened (a `cd` that can fail). Pure: no I/O, no policy.

use super::Word;

/// The directory commands run in, relative to the start (`None` once it cannot be known),
/// with the rest of the shell's directory state (issue 15 class 8): `OLDPWD` (for `cd -` and
/// `~-`) and the directory stack of `pushd`/`popd`, each `None` when unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cwd(pub Option<String>, Dirs);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Dirs {
    /// `OLDPWD`: unknown at the start (inherited from the environment).
    old: Option<Option<String>>,
    /// The directory stack below the current directory, as far as this text pushed it: what
    /// lies below that at the start is not known (an agent's shell may keep its stack from
    /// one command to the next: red team 41 found a bare `popd && cat id_rsa` allowed).
    stack: Option<Vec<Entry>>,
    /// The stack still holds what was there at the start (no `dirs -c` emptied it). A
    /// `pushd` leaves that below what it pushes (red team 70: `pushd src && popd && popd`
    /// reached a directory an earlier call's `pushd -n /etc` left; `pushd -0` turned it up).
    inherited: bool,
}

/// One entry of the directory stack.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Entry {
    /// A directory, relative to the start or absolute (`None`: not known); bash keeps the
    /// full path of each directory `pushd` leaves.
    Dir(Option<String>),
    /// `pushd -n DIR` keeps DIR as typed: a relative one is taken from wherever the shell is
    /// when `popd`, `pushd +N` or `~N` uses it (`pushd -n src; cd docs; popd` lands in
    /// docs/src).
    Typed(String),
}

impl Cwd {
    /// Whether `OLDPWD` is a directory this text was in.
    pub(super) fn knows_old(&self) -> bool {
        matches!(self.1.old, Some(Some(_)))
    }

    pub(crate) fn start() -> Self {
        Cwd(Some(String::new()), Dirs { old: None, stack: Some(Vec::new()), inherited: true })
    }

    /// The directory stack is no longer known (`DIRSTACK` was assigned).
    pub(super) fn forget_stack(&mut self) {
        self.1.stack = None;
    }

    /// Nothing about the directories is known any more.
    pub(super) fn forget(&mut self) {
        *self = Cwd(None, Dirs { old: None, stack: None, inherited: true });
    }

    /// What holds after either of two ways: the directory where both end in the same one,
    /// and `OLDPWD` and the stack where both agree (red team 41: `pushd d; ls; popd` may fail
    /// at `pushd` and leave another OLDPWD, which took the directory away too).
    pub(super) fn merged(&self, other: &Cwd) -> Cwd {
        if self.0 != other.0 {
            let mut c = self.clone();
            c.forget();
            return c;
        }
        Cwd(
            self.0.clone(),
            Dirs {
                old: if self.1.old == other.1.old { self.1.old.clone() } else { None },
                stack: if self.1.stack == other.1.stack { self.1.stack.clone() } else { None },
                inherited: self.1.inherited || other.1.inherited,
            },
        )
    }

    /// The same directory and OLDPWD (the stack may differ).
    pub(super) fn same_place(&self, other: &Cwd) -> bool {
        self.0 == other.0 && self.1.old == other.1.old
    }

    /// The directory `target` names from the current one, if known.
    pub(super) fn joined(&self, target: Option<&str>) -> Option<String> {
        match (&self.0, target) {
            (Some(cur), Some(t)) if !t.is_empty() && !t.starts_with('-') && !t.starts_with('~') => {
                Some(if t.starts_with('/') || cur.is_empty() {
                    t.to_string()
                } else {
                    format!("{}/{}", cur.trim_end_matches('/'), t)
                })
            }
            _ => None,
        }
    }

    /// The directory with `.` and `..` taken lexically, as bash's `cd` without `-P` takes them
    /// (`cd docs && cd ..` is back at the start); as it was where a `..` would climb above the
    /// start or the directory is unknown.
    pub(super) fn lexical(&self) -> Cwd {
        let mut c = self.clone();
        if let Some(d) = &self.0 {
            let absolute = d.starts_with('/');
            let mut parts: Vec<&str> = Vec::new();
            for seg in d.split('/') {
                match seg {
                    "" | "." => {}
                    ".." => {
                        if parts.pop().is_none() {
                            return c;
                        }
                    }
                    s => parts.push(s),
                }
            }
            let joined = parts.join("/");
            c.0 = Some(if absolute { format!("/{joined}") } else { joined });
        }
        c
    }

    /// A process started in `dir` (`env -C dir`): OLDPWD stays what the shell had.
    pub(super) fn enter(&mut self, dir: String) {
        self.0 = Some(dir);
    }

    pub(super) fn move_to(&mut self, dir: Option<String>) {
        self.1.old = Some(self.0.take());
        self.0 = dir;
    }

    /// `cd [-L|-P|-e|-@]... [DIR|-]`.
    pub(super) fn cd(&mut self, args: &[Word]) {
        let mut rest =
            args.iter().skip_while(|w| w.lit().is_some_and(|a| a.len() > 1 && a.starts_with('-') && a != "--"));
        let first = rest.next();
        let target = match first.and_then(Word::lit) {
            Some("--") => rest.next(),
            _ => first,
        };
        match target.map(Word::lit) {
            Some(Some("-")) => match self.1.old.clone() {
                Some(old) => self.move_to(old),
                None => self.move_to(None),
            },
            Some(t) => {
                let dir = self.joined(t);
                self.move_to(dir);
            }
            // `cd` alone goes home.
            None => self.move_to(None),
        }
    }

    /// `dirs`' list as far as it is known (the current directory first, then the stack from
    /// its top), and the index `+N` or `-N` (`arg`) names in it: `None` where the stack is not
    /// known, or the index is beyond it (bash then refuses, and nothing moves: `Some` of the
    /// list and `None`).
    ///
    /// Below the text's own entries lie those the stack held at the start, unless `dirs -c`
    /// emptied it: then `+N` is known only within the text's entries, and `-N` (counted from
    /// the bottom) not at all (red team 70: `pushd src && pushd -0`).
    fn stack_entry(&self, arg: &str) -> Option<(Vec<Entry>, Option<usize>)> {
        if !stack_index(arg) {
            return None;
        }
        let n: usize = arg[1..].parse().ok()?;
        let stack = self.1.stack.as_ref()?;
        let list: Vec<Entry> = std::iter::once(Entry::Dir(self.0.clone())).chain(stack.iter().rev().cloned()).collect();
        let k = match (arg.starts_with('+'), self.1.inherited) {
            (true, _) => Some(n),
            (false, false) => (list.len() - 1).checked_sub(n),
            (false, true) => return None,
        };
        let k = k.filter(|k| *k < list.len());
        if k.is_none() && self.1.inherited {
            return None;
        }
        Some((list, k))
    }

    /// `~+N` (and `~N`): entry N of `dirs`' list, as the way to it from the current
    /// directory, when known (red team 70: `pushd src && pushd ../docs && cat ~+1/a.rs`).
    pub(super) fn stack_tilde(&self, n: usize) -> Option<String> {
        match self.stack_entry(&format!("+{n}")) {
            Some((list, Some(k))) => match &list[k] {
                Entry::Dir(d) => self.way_to(d.as_deref()?),
                Entry::Typed(t) => self.joined(Some(t)).map(|_| t.clone()),
            },
            _ => None,
        }
    }

    /// Where a stack entry leads from the current directory.
    fn place(&self, e: Entry) -> Option<String> {
        match e {
            Entry::Dir(d) => d,
            Entry::Typed(t) => self.joined(Some(&t)),
        }
    }

    /// `pushd +N` and `-N`: the list turned so that entry N is the current directory (red team
    /// 69: `pushd docs && pushd guide && pushd +1` lands in docs).
    fn rotate(&mut self, arg: &str) {
        match self.stack_entry(arg) {
            Some((mut list, Some(k))) if k > 0 => {
                list.rotate_left(k);
                let cur = self.place(list.remove(0));
                // (What the stack held at the start now lies between the turned parts.)
                self.1.stack = (!self.1.inherited).then(|| list.into_iter().rev().collect());
                self.move_to(cur);
            }
            Some(_) => {}
            None => self.forget(),
        }
    }

    /// `pushd [-n] [DIR | +N | -N]`.
    pub(super) fn pushd(&mut self, args: &[Word]) {
        if let [Word::Lit(a)] = args {
            if stack_index(a) {
                return self.rotate(&a.clone());
            }
        }
        let lits: Vec<Option<&str>> = args.iter().map(Word::lit).collect();
        match lits.as_slice() {
            // Exchange the top two directories.
            [] => match self.1.stack.as_mut().and_then(|s| s.pop()) {
                Some(top) => {
                    let top = self.place(top);
                    let cur = self.0.take();
                    self.1.stack.get_or_insert_with(Vec::new).push(Entry::Dir(cur.clone()));
                    self.1.old = Some(cur);
                    self.0 = top;
                }
                // An empty stack: an error, nothing moves; unless it holds what was there.
                None if self.1.stack.is_some() && !self.1.inherited => {}
                None => self.forget(),
            },
            [Some(t)] if !t.starts_with(['-', '+']) => {
                let dir = self.joined(Some(t));
                let cur = self.0.clone();
                if let Some(s) = self.1.stack.as_mut() {
                    s.push(Entry::Dir(cur));
                }
                self.move_to(dir);
            }
            // `-n DIR` puts DIR below the top without moving (red team 70).
            [Some("-n"), Some(t)] if !t.is_empty() && !t.starts_with(['-', '+', '~']) => {
                if let Some(s) = self.1.stack.as_mut() {
                    s.push(Entry::Typed(t.to_string()));
                }
            }
            _ => self.forget(),
        }
    }

    /// `popd [-n] [+N | -N]`: `+N`/`-N` takes entry N out of the list, which moves the
    /// directory only for entry 0 (red team 69: `pushd docs && pushd guide && popd +1` stays
    /// in docs/guide).
    pub(super) fn popd(&mut self, args: &[Word]) {
        let lits: Vec<Option<&str>> = args.iter().map(Word::lit).collect();
        if let [Some(a)] = lits.as_slice() {
            if stack_index(a) {
                match self.stack_entry(a) {
                    Some((_, Some(0))) => return self.popd(&[]),
                    Some((list, Some(k))) => {
                        if let Some(s) = self.1.stack.as_mut() {
                            s.remove(list.len() - 1 - k);
                        }
                    }
                    Some((_, None)) => {}
                    None => self.forget(),
                }
                return;
            }
        }
        let no_cd = match lits.as_slice() {
            [] => false,
            [Some("-n")] => true,
            _ => return self.forget(),
        };
        match self.1.stack.as_mut() {
            Some(s) => match s.pop() {
                Some(top) if !no_cd => {
                    let top = self.place(top);
                    self.move_to(top);
                }
                // Below what this text pushed: a directory an earlier command left there.
                None if self.1.inherited && !no_cd => self.forget(),
                _ => {}
            },
            None => self.forget(),
        }
    }

    /// `dirs -c` empties the stack; every other form only prints.
    pub(super) fn dirs(&mut self, args: &[Word]) {
        if args.iter().any(|w| w.lit().is_none_or(|a| a.starts_with('-') && a.contains('c'))) {
            self.1.stack = Some(Vec::new());
            self.1.inherited = false;
        }
    }

    /// `~+` is the current directory; `~-` is OLDPWD, when known: as it is when absolute,
    /// else as the way from the current directory back to it, when that is known too
    /// (seventh red team: `cd src; echo hi > ~-/.env` writes the start's `.env`).
    pub(super) fn tilde(&self, plus: bool) -> Option<String> {
        if plus {
            return self.0.as_ref().map(|_| ".".to_string());
        }
        match &self.1.old {
            Some(Some(d)) => self.way_to(d),
            _ => None,
        }
    }

    /// The way from the current directory to `d` (relative to the start, or absolute): `d`
    /// itself when absolute, else the `..`s back to the start and `d` below it, when the
    /// current directory is known and below the start.
    pub(super) fn way_to(&self, d: &str) -> Option<String> {
        if d.starts_with('/') {
            return Some(d.to_string());
        }
        let cur = self.0.as_deref().filter(|c| !c.starts_with('/'))?;
        // bash's `cd` is logical: `..` takes away the last name, as here.
        let mut depth = 0usize;
        for part in cur.split('/') {
            match part {
                "" | "." => {}
                ".." => depth = depth.checked_sub(1)?,
                _ => depth += 1,
            }
        }
        let up = vec![".."; depth].join("/");
        Some(match (up.is_empty(), d.is_empty()) {
            (true, true) => ".".to_string(),
            (true, false) => d.to_string(),
            (false, true) => up,
            (false, false) => format!("{up}/{d}"),
        })
    }
}

/// Whether `arg` is an index into `dirs`' list, `+N` or `-N`.
fn stack_index(arg: &str) -> bool {
    arg.len() > 1 && arg.starts_with(['+', '-']) && arg[1..].bytes().all(|b| b.is_ascii_digit())
}
