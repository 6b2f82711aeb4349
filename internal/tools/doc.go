// Package tools pins the code generators and the migration CLI as Go tools in a
// module of their own, so their dependencies never enter the service's go.mod.
// Run them with `go tool -modfile=internal/tools/go.mod <tool>` (the Makefile does).
package tools
