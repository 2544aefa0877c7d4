package sqlitefile

import (
	"errors"
	"strings"
)

// token is a word, a quoted name or string, or a punctuation character of
// an SQL statement.
type token struct {
	text   string // without quotes
	quoted bool
}

// is reports whether tok is one of the unquoted words (upper case) or
// punctuation characters in s, ignoring case.
func (tok token) is(s ...string) bool {
	if tok.quoted {
		return false
	}
	for _, w := range s {
		if strings.EqualFold(tok.text, w) {
			return true
		}
	}
	return false
}

// tokenize splits an SQL statement into tokens, dropping spaces and
// comments. Names may be quoted with double quotes, backquotes, square
// brackets or single quotes; a doubled quote inside stands for one.
func tokenize(sql string) []token {
	var toks []token
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case strings.ContainsRune(" \t\n\r\f", rune(c)):
			i++
		case strings.HasPrefix(sql[i:], "--"):
			if j := strings.IndexByte(sql[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(sql)
			}
		case strings.HasPrefix(sql[i:], "/*"):
			if j := strings.Index(sql[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(sql)
			}
		case c == '"' || c == '`' || c == '\'' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			var b strings.Builder
			for i++; i < len(sql); i++ {
				if sql[i] == end {
					if end == ']' || i+1 == len(sql) || sql[i+1] != end {
						i++
						break
					}
					i++ // doubled quote
				}
				b.WriteByte(sql[i])
			}
			toks = append(toks, token{b.String(), true})
		case isWordByte(c):
			j := i
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			toks = append(toks, token{sql[i:j], false})
			i = j
		default:
			toks = append(toks, token{sql[i : i+1], false})
			i++
		}
	}
	return toks
}

// isWordByte reports whether c may be part of an unquoted name, keyword or
// number.
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// parseCreateTable reads the columns of a CREATE TABLE statement, and
// which one, if any, is an INTEGER PRIMARY KEY and so stands for the
// rowid (-1 if none).
func parseCreateTable(sql string) (cols []column, alias int, err error) {
	toks := tokenize(sql)
	open := -1
	for i, tok := range toks {
		if tok.is("(") {
			open = i
			break
		}
	}
	if open < 0 {
		return nil, -1, errors.New("no column list in CREATE TABLE")
	}
	// Split the definitions at the commas outside nested parentheses.
	var defs [][]token
	depth, start, closed := 0, open+1, false
	for i := open + 1; i < len(toks) && !closed; i++ {
		switch {
		case toks[i].is("("):
			depth++
		case toks[i].is(")") && depth > 0:
			depth--
		case toks[i].is(")"), toks[i].is(",") && depth == 0:
			defs = append(defs, toks[start:i])
			start, closed = i+1, toks[i].is(")")
		}
	}
	if !closed {
		return nil, -1, errors.New("unterminated CREATE TABLE")
	}
	for _, tok := range toks[start:] {
		if tok.is("WITHOUT") {
			return nil, -1, errors.New("WITHOUT ROWID tables are not supported")
		}
	}

	alias, pk := -1, "" // pk: the column of a PRIMARY KEY(col) table constraint
	var types []string  // declared type of each column
	for _, def := range defs {
		if len(def) == 0 {
			return nil, -1, errors.New("empty column definition")
		}
		if def[0].is("CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN") {
			if name, ok := primaryKeyColumn(def); ok {
				pk = name
			}
			continue
		}
		// A column: name, type words, then constraints. Parenthesized
		// parts (type sizes, CHECK and DEFAULT expressions) don't matter.
		words := topLevel(def[1:])
		var typ []string
		for _, w := range words {
			if w.quoted || w.is("()", "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE", "REFERENCES", "GENERATED", "AS") {
				break
			}
			typ = append(typ, strings.ToUpper(w.text))
		}
		types = append(types, strings.Join(typ, " "))
		for i, w := range words {
			switch {
			case w.is("GENERATED", "AS"):
				return nil, -1, errors.New("generated columns are not supported")
			case w.is("PRIMARY") && i+1 < len(words) && words[i+1].is("KEY"):
				// INTEGER PRIMARY KEY DESC is, by a quirk SQLite keeps
				// for compatibility, not an alias of the rowid.
				desc := i+2 < len(words) && words[i+2].is("DESC")
				if types[len(cols)] == "INTEGER" && !desc {
					alias = len(cols)
				}
			}
		}
		cols = append(cols, column{name: def[0].text, real: realAffinity(types[len(cols)])})
	}
	for i, c := range cols {
		if pk != "" && strings.EqualFold(c.name, pk) && types[i] == "INTEGER" {
			alias = i
		}
	}
	return cols, alias, nil
}

// topLevel returns toks with each parenthesized group replaced by one
// token "()".
func topLevel(toks []token) []token {
	var out []token
	depth := 0
	for _, tok := range toks {
		switch {
		case tok.is("("):
			if depth == 0 {
				out = append(out, token{text: "()"})
			}
			depth++
		case tok.is(")"):
			depth--
		case depth == 0:
			out = append(out, tok)
		}
	}
	return out
}

// primaryKeyColumn returns the column of a table constraint
// [CONSTRAINT name] PRIMARY KEY (col [ASC|DESC]) [...] naming one column.
func primaryKeyColumn(def []token) (string, bool) {
	for i := 0; i+4 < len(def); i++ {
		if !def[i].is("PRIMARY") || !def[i+1].is("KEY") || !def[i+2].is("(") {
			continue
		}
		name, rest := def[i+3], def[i+4:]
		if rest[0].is("ASC", "DESC") && len(rest) > 1 {
			rest = rest[1:]
		}
		return name.text, rest[0].is(")")
	}
	return "", false
}

// realAffinity reports whether a declared type gives a column REAL
// affinity, by SQLite's rules: the first of these to match a substring
// decides: INT (integer), CHAR, CLOB or TEXT (text), BLOB (blob), REAL,
// FLOA or DOUB (real).
func realAffinity(typ string) bool {
	for _, s := range []string{"INT", "CHAR", "CLOB", "TEXT", "BLOB"} {
		if strings.Contains(typ, s) {
			return false
		}
	}
	return strings.Contains(typ, "REAL") || strings.Contains(typ, "FLOA") || strings.Contains(typ, "DOUB")
}
