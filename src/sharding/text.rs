//! A small whitespace-tolerant cursor shared by the sdy and GSPMD parsers.

use crate::sharding::error::ShardingError;

pub(crate) struct Cursor<'a> {
    input: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(input: &'a str) -> Self {
        Cursor { input, pos: 0 }
    }

    pub(crate) fn error(&self, message: impl Into<String>) -> ShardingError {
        self.error_at(self.pos, message)
    }

    /// The byte offset of the next token.
    pub(crate) fn offset(&mut self) -> usize {
        self.skip_ws();
        self.pos
    }

    pub(crate) fn error_at(&self, offset: usize, message: impl Into<String>) -> ShardingError {
        ShardingError::Parse { input: self.input.to_string(), offset, message: message.into() }
    }

    fn rest(&self) -> &'a str {
        &self.input[self.pos..]
    }

    pub(crate) fn skip_ws(&mut self) {
        let trimmed = self.rest().trim_start();
        self.pos = self.input.len() - trimmed.len();
    }

    pub(crate) fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next()
    }

    /// Consumes `token` (after whitespace) when it comes next.
    pub(crate) fn eat(&mut self, token: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(token) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    /// Consumes the keyword `word` when it comes next as a whole word.
    pub(crate) fn eat_word(&mut self, word: &str) -> bool {
        self.skip_ws();
        let rest = self.rest();
        let whole =
            rest.starts_with(word) && !rest[word.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if whole {
            self.pos += word.len();
        }
        whole
    }

    pub(crate) fn expect(&mut self, token: &str) -> Result<(), ShardingError> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{token}`")))
        }
    }

    pub(crate) fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos == self.input.len()
    }

    pub(crate) fn finish(&mut self) -> Result<(), ShardingError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error("unexpected text after the end"))
        }
    }

    /// An unsigned decimal integer.
    pub(crate) fn uint(&mut self) -> Result<u64, ShardingError> {
        self.skip_ws();
        let digits = self.rest().bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(self.error("expected a non-negative integer"));
        }
        let value = self.rest()[..digits].parse().map_err(|_| self.error("integer too large"))?;
        self.pos += digits;
        Ok(value)
    }

    pub(crate) fn usize(&mut self) -> Result<usize, ShardingError> {
        let start = self.offset();
        let v = self.uint()?;
        usize::try_from(v).map_err(|_| self.error_at(start, "integer too large"))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, ShardingError> {
        let start = self.offset();
        let v = self.uint()?;
        u32::try_from(v).map_err(|_| self.error_at(start, "device id too large"))
    }

    /// A comma-separated list of unsigned integers between `open` and `close`.
    pub(crate) fn usize_list(&mut self, open: &str, close: &str) -> Result<Vec<usize>, ShardingError> {
        self.expect(open)?;
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.usize()?);
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(",")?;
        }
    }

    /// A double-quoted string without escapes (axis names).
    pub(crate) fn quoted(&mut self) -> Result<String, ShardingError> {
        self.expect("\"")?;
        let rest = self.rest();
        let end = rest.find('"').ok_or_else(|| self.error("unterminated string"))?;
        let text = &rest[..end];
        if text.contains('\\') {
            return Err(self.error("escapes in names are not supported"));
        }
        self.pos += end + 1;
        Ok(text.to_string())
    }

    /// A bare identifier: a letter or `_`, then letters, digits, `_`, `$`, `.` or `-`.
    pub(crate) fn ident(&mut self) -> Result<String, ShardingError> {
        self.skip_ws();
        let rest = self.rest();
        let starts_ok = rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || "_$.-".contains(c))).unwrap_or(rest.len());
        if !starts_ok || len == 0 {
            return Err(self.error("expected an identifier"));
        }
        self.pos += len;
        Ok(rest[..len].to_string())
    }

    /// Skips a `{...}` block with nested braces and double-quoted strings (GSPMD metadata).
    pub(crate) fn skip_braced(&mut self) -> Result<(), ShardingError> {
        self.expect("{")?;
        let mut depth = 1usize;
        let mut in_string = false;
        let mut escaped = false;
        for (i, c) in self.rest().char_indices() {
            match (in_string, c) {
                (true, _) if escaped => escaped = false,
                (true, '\\') => escaped = true,
                (true, '"') => in_string = false,
                (false, '"') => in_string = true,
                (false, '{') => depth += 1,
                (false, '}') => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += i + 1;
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err(self.error("unbalanced `{`"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_with_whitespace() {
        let mut c = Cursor::new("  [ 1 ,2 ]  \"ab\" foo_1.x-y");
        assert_eq!(c.usize_list("[", "]").unwrap(), vec![1, 2]);
        assert_eq!(c.quoted().unwrap(), "ab");
        assert_eq!(c.ident().unwrap(), "foo_1.x-y");
        assert!(c.finish().is_ok());
    }

    #[test]
    fn errors_carry_offsets() {
        let mut c = Cursor::new("[1,x]");
        let err = c.usize_list("[", "]").unwrap_err();
        assert!(matches!(err, ShardingError::Parse { offset: 3, .. }), "{err}");
        assert!(Cursor::new("99999999999999999999999").uint().is_err());
        assert!(Cursor::new("\"abc").quoted().is_err());
        assert!(Cursor::new("{a{b}").skip_braced().is_err());
        let mut c = Cursor::new("{a=\"}\" {b}} rest");
        c.skip_braced().unwrap();
        assert!(c.eat_word("rest"));
    }

    #[test]
    fn words_are_whole() {
        let mut c = Cursor::new("manualx");
        assert!(!c.eat_word("manual"));
    }
}
