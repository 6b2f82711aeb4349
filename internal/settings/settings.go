// Package settings reads and writes the service-wide settings an administrator
// changes at run time, kept in app_setting.
package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/db"
)

// Keys of app_setting.
const (
	KeySignupEnabled = "signup_enabled"
	KeySpamKeywords  = "spam_keywords"
)

// SignupEnabled reports whether sign-up is open; it is open until an
// administrator closes it.
func SignupEnabled(ctx context.Context, q *db.Queries) (bool, error) {
	enabled := true
	if err := get(ctx, q, KeySignupEnabled, &enabled); err != nil {
		return false, err
	}
	return enabled, nil
}

// SetSignupEnabled opens or closes sign-up.
func SetSignupEnabled(ctx context.Context, q *db.Queries, enabled bool) error {
	return put(ctx, q, KeySignupEnabled, enabled)
}

// get decodes the value of key into v, leaving v as it is when the key is unset.
func get(ctx context.Context, q *db.Queries, key string, v any) error {
	raw, err := q.GetAppSetting(ctx, key)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read setting %s: %w", key, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("decode setting %s: %w", key, err)
	}
	return nil
}

func put(ctx context.Context, q *db.Queries, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode setting %s: %w", key, err)
	}
	if err := q.PutAppSetting(ctx, db.PutAppSettingParams{Key: key, Value: raw}); err != nil {
		return fmt.Errorf("write setting %s: %w", key, err)
	}
	return nil
}

// SpamKeywords answers the board's spam keyword list (none until an
// administrator sets one).
func SpamKeywords(ctx context.Context, q *db.Queries) ([]string, error) {
	keywords := []string{}
	if err := get(ctx, q, KeySpamKeywords, &keywords); err != nil {
		return nil, err
	}
	return keywords, nil
}

// SetSpamKeywords stores the board's spam keyword list as given (the board
// cleans it).
func SetSpamKeywords(ctx context.Context, q *db.Queries, keywords []string) error {
	return put(ctx, q, KeySpamKeywords, keywords)
}

// Keys of the CSV import's limits.
const (
	KeyCSVImportMaxBytes = "csv_import_max_bytes"
	KeyCSVImportMaxRows  = "csv_import_max_rows"
)

// Defaults of the CSV import's limits: a decade of a busy account's
// history fits in either.
const (
	DefaultCSVImportMaxBytes = 10 << 20
	DefaultCSVImportMaxRows  = 20_000
)

// CSVImportLimits answers the largest CSV file (bytes) and the most data rows
// an import takes.
func CSVImportLimits(ctx context.Context, q *db.Queries) (maxBytes, maxRows int64, err error) {
	maxBytes, maxRows = DefaultCSVImportMaxBytes, DefaultCSVImportMaxRows
	if err := get(ctx, q, KeyCSVImportMaxBytes, &maxBytes); err != nil {
		return 0, 0, err
	}
	if err := get(ctx, q, KeyCSVImportMaxRows, &maxRows); err != nil {
		return 0, 0, err
	}
	return maxBytes, maxRows, nil
}

// SetCSVImportLimits stores the CSV import's limits.
func SetCSVImportLimits(ctx context.Context, q *db.Queries, maxBytes, maxRows int64) error {
	if err := put(ctx, q, KeyCSVImportMaxBytes, maxBytes); err != nil {
		return err
	}
	return put(ctx, q, KeyCSVImportMaxRows, maxRows)
}
