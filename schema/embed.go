// Package schema holds the goose migrations: the one description of the
// database, read by sqlc at generation time and applied at start-up.
package schema

import "embed"

// Migrations are the goose migration files.
//
//go:embed *.sql
var Migrations embed.FS
