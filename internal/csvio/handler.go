// Package csvio answers a member's entries as a CSV file and creates entries
// from a CSV file: the service's own export, or a bank's or card issuer's
// read through a column mapping, with a dry run.
package csvio

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/ledger"
)

// CSVHandler implements the CSV export and import operations.
type CSVHandler struct {
	pool  *pgxpool.Pool
	clock clock.Clock
	loc   *time.Location
	// entryHook is the ledger's entry hook (the month-complete check), run
	// after an import created entries.
	entryHook ledger.EntryHook
}

// NewHandler returns the CSV handler; the clock in loc (APP_TIMEZONE) says
// which day an import's month-complete check runs for.
func NewHandler(pool *pgxpool.Pool, c clock.Clock, loc *time.Location) *CSVHandler {
	return &CSVHandler{pool: pool, clock: c, loc: loc}
}

// OnEntryWritten sets the hook run after an import committed entries, as
// after any other entry write.
func (h *CSVHandler) OnEntryWritten(f ledger.EntryHook) { h.entryHook = f }
