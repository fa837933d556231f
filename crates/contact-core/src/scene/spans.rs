//! Where each value of a RON text starts: a tolerant scan that maps field paths
//! such as `constraints[2].body` to a line and column.
//!
//! serde gives positions only for what the RON parser itself rejects. The checks
//! that come after (an unknown body name, a negative mass, two balls overlapping)
//! work on typed values, so they find the text of the offending field here.
//!
//! Paths: `key` for a struct field, `[i]` for the i-th element of a list or tuple.
//! Enum variants (`Ball(…)`) and `Some(…)` add no segment, so the path of a ball's
//! mass is `bodies[3].mass` whether or not the variant name is written.
//!
//! The scan never fails: on text the RON parser would reject it records what it
//! can (which is how a type error inside a broken file still gets its field name).

/// A 1-based line and column (in characters), as `ron` counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

/// One value of the text: its path and where it starts and ends.
#[derive(Clone, Debug)]
struct Record {
    path: String,
    start: Pos,
    end: Pos,
}

/// The paths of a text's values and their positions.
#[derive(Clone, Debug, Default)]
pub struct Locator {
    records: Vec<Record>,
    bom: bool,
}

impl Locator {
    /// Scans `text`.
    pub fn new(text: &str) -> Self {
        let tokens = tokenize(text);
        let mut scan = Scan { tokens: &tokens, i: 0, records: Vec::new() };
        scan.value(String::new(), 0);
        Locator { records: scan.records, bom: text.starts_with('\u{feff}') }
    }

    /// Whether the text starts with a byte-order mark.
    pub fn starts_with_bom(&self) -> bool {
        self.bom
    }

    /// Where the value at `path` starts; if the path is not in the text (a field
    /// left to its default), where its nearest written ancestor starts.
    pub fn locate(&self, path: &str) -> Option<Pos> {
        let mut p = path;
        loop {
            if let Some(r) = self.records.iter().find(|r| r.path == p) {
                return Some(r.start);
            }
            p = parent(p)?;
        }
    }

    /// Whether `path` itself is written in the text.
    pub fn contains(&self, path: &str) -> bool {
        self.records.iter().any(|r| r.path == path)
    }

    /// The path of the innermost value that encloses `pos` (`None` at top level).
    pub fn path_at(&self, pos: Pos) -> Option<&str> {
        self.records
            .iter()
            .filter(|r| r.start <= pos && pos <= r.end && !r.path.is_empty())
            .max_by_key(|r| (r.start, std::cmp::Reverse(r.end)))
            .map(|r| r.path.as_str())
    }
}

/// `a.b[2].c` → `a.b[2]` → `a.b` → `a` → `` → None.
fn parent(path: &str) -> Option<&str> {
    if path.is_empty() {
        return None;
    }
    let cut = path.rfind(['.', '[']).unwrap_or(0);
    Some(&path[..cut])
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `(`, `)`, `[`, `]`, `{`, `}`, `:`, `,`
    Punct(char),
    /// A number, string, char or anything else that is a whole value.
    Atom,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    start: Pos,
    end: Pos,
}

/// Splits RON into tokens, skipping whitespace, comments and `#![…]` attributes'
/// `#!` (the brackets then read as a list, which is harmless).
fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut pos_of = Vec::with_capacity(chars.len() + 1);
    let (mut line, mut col) = (1, 1);
    for &c in &chars {
        pos_of.push(Pos { line, col });
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    pos_of.push(Pos { line, col });
    let at = |i: usize| pos_of[i.min(chars.len())];
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() || c == '#' || c == '!' {
            i += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            // Block comments nest in RON.
            let mut depth = 0usize;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth = depth.saturating_sub(1);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            continue;
        }
        let tok = if "()[]{}:,".contains(c) {
            i += 1;
            Tok::Punct(c)
        } else if c == '"' || (c == 'b' && chars.get(i + 1) == Some(&'"')) {
            i += if c == 'b' { 2 } else { 1 };
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            Tok::Atom
        } else if (c == 'r' || c == 'b') && is_raw_string_start(&chars[i..]) {
            // r"…", r#"…"#, br#"…"#: ends at `"` followed by as many `#`.
            i += if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while chars.get(i) == Some(&'#') {
                hashes += 1;
                i += 1;
            }
            i += 1;
            while i < chars.len() {
                if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            Tok::Atom
        } else if c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            Tok::Atom
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // `inf`, `NaN` and `true` are values, not names.
            if ["inf", "NaN", "true", "false"].contains(&word.as_str()) { Tok::Atom } else { Tok::Ident(word) }
        } else {
            // Numbers (signs, digits, `.`, exponents, `_`, hex) and anything unknown.
            i += 1;
            while i < chars.len() && !chars[i].is_whitespace() && !"()[]{}:,/".contains(chars[i]) {
                i += 1;
            }
            Tok::Atom
        };
        out.push(Token { tok, start: at(start), end: at(i.saturating_sub(1)) });
    }
    out
}

fn is_raw_string_start(s: &[char]) -> bool {
    let mut i = if s.first() == Some(&'b') { 1 } else { 0 };
    if s.get(i) != Some(&'r') {
        return false;
    }
    i += 1;
    while s.get(i) == Some(&'#') {
        i += 1;
    }
    s.get(i) == Some(&'"')
}

/// A tolerant recursive descent over the tokens.
struct Scan<'a> {
    tokens: &'a [Token],
    i: usize,
    records: Vec<Record>,
}

/// Deeper nesting than this is skipped (the RON parser has its own limit).
const MAX_DEPTH: usize = 64;

impl Scan<'_> {
    fn peek(&self, k: usize) -> Option<&Tok> {
        self.tokens.get(self.i + k).map(|t| &t.tok)
    }

    fn last_end(&self) -> Pos {
        self.tokens.get(self.i.saturating_sub(1)).or(self.tokens.last()).map_or(Pos { line: 1, col: 1 }, |t| t.end)
    }

    /// One value at `path`: records it and consumes its tokens.
    fn value(&mut self, path: String, depth: usize) {
        let Some(first) = self.tokens.get(self.i) else { return };
        let start = first.start;
        let rec = self.records.len();
        self.records.push(Record { path: path.clone(), start, end: start });
        match first.tok.clone() {
            Tok::Ident(name) => {
                self.i += 1;
                if self.peek(0) == Some(&Tok::Punct('(')) {
                    self.i += 1;
                    // `Some(x)` is transparent: x has the path of the option itself.
                    let transparent = name == "Some";
                    self.group(&path, ')', transparent, depth + 1);
                }
            }
            Tok::Punct(open @ ('(' | '[' | '{')) => {
                self.i += 1;
                let close = match open {
                    '(' => ')',
                    '[' => ']',
                    _ => '}',
                };
                self.group(&path, close, false, depth + 1);
            }
            Tok::Punct(_) => {
                // A stray `)`, `,` or `:` where a value should be: leave it to the caller.
            }
            Tok::Atom => self.i += 1,
        }
        self.records[rec].end = self.last_end();
    }

    /// The items of a group up to `close`; the opening bracket is consumed.
    fn group(&mut self, path: &str, close: char, transparent: bool, depth: usize) {
        if depth > MAX_DEPTH {
            self.skip_group();
            return;
        }
        let mut index = 0;
        while let Some(tok) = self.peek(0).cloned() {
            let before = self.i;
            match tok {
                Tok::Punct(c) if c == close => {
                    self.i += 1;
                    return;
                }
                Tok::Punct(')' | ']' | '}') => return, // mismatched: let the outer group have it
                Tok::Punct(',') => self.i += 1,
                Tok::Ident(key) if self.peek(1) == Some(&Tok::Punct(':')) => {
                    self.i += 2;
                    let child = if path.is_empty() { key } else { format!("{path}.{key}") };
                    self.value(child, depth);
                }
                _ => {
                    let child = if transparent { path.to_string() } else { format!("{path}[{index}]") };
                    index += 1;
                    self.value(child, depth);
                    // A map's `key: value`: the value goes under the same index.
                    if self.peek(0) == Some(&Tok::Punct(':')) {
                        self.i += 1;
                    }
                }
            }
            if self.i == before {
                self.i += 1; // always make progress
            }
        }
    }

    /// Skips to the bracket that closes the current group.
    fn skip_group(&mut self) {
        let mut depth = 1usize;
        while let Some(tok) = self.peek(0).cloned() {
            self.i += 1;
            match tok {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r##"// a comment
Scene(
    name: "x", /* block /* nested */ */
    bodies: [
        Ball(name: "b1", position: (0.0, 1.5), mass: 2),
        Anchor(name: "a", position: (1, 2)),
    ],
    ball_pile: Some((count: 3)),
    text: r#"raw "quoted" string"#,
    constraints: [Rod(name: "r", a: "b1", b: "a")],
)"##;

    #[test]
    fn paths_point_at_their_values() {
        let loc = Locator::new(TEXT);
        assert_eq!(loc.locate("name"), Some(Pos { line: 3, col: 11 }));
        assert_eq!(loc.locate("bodies[0].mass"), Some(Pos { line: 5, col: 54 }));
        assert_eq!(loc.locate("bodies[1].position[1]"), Some(Pos { line: 6, col: 41 }));
        assert_eq!(loc.locate("ball_pile.count"), Some(Pos { line: 8, col: 29 }));
        assert_eq!(loc.locate("constraints[0].b"), Some(Pos { line: 10, col: 46 }));
        // A field left to its default: its parent.
        assert_eq!(loc.locate("bodies[1].radius"), Some(Pos { line: 6, col: 9 }));
        assert_eq!(loc.path_at(Pos { line: 5, col: 54 }), Some("bodies[0].mass"));
        assert_eq!(loc.path_at(Pos { line: 6, col: 23 }), Some("bodies[1].name"));
    }

    #[test]
    fn broken_text_is_scanned_without_panicking() {
        for cut in 0..TEXT.len() {
            if TEXT.is_char_boundary(cut) {
                let loc = Locator::new(&TEXT[..cut]);
                let _ = loc.locate("constraints[0].b");
            }
        }
        let deep = "[".repeat(10_000);
        let _ = Locator::new(&deep).locate("x");
        let _ = Locator::new(")]}:,,::\"unterminated").locate("x");
    }
}
