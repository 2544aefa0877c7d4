package scanner

import _ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

// sqlDriver is the database/sql driver that reads opencode.db: SQLite
// translated from C to Go, so no cgo.
const sqlDriver = "sqlite"
