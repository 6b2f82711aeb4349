package board

import (
	"context"
	"fmt"
	"strings"

	"golang.org/x/text/cases"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/settings"
	"github.com/nestegg/nestegg/internal/text"
)

// GetSpamKeywords answers the spam keyword list.
func (h *BoardHandler) GetSpamKeywords(ctx context.Context, _ api.GetSpamKeywordsRequestObject) (api.GetSpamKeywordsResponseObject, error) {
	keywords, err := spamKeywords(ctx, db.New(h.pool))
	if err != nil {
		return nil, err
	}
	return api.GetSpamKeywords200JSONResponse{Keywords: keywords}, nil
}

// SetSpamKeywords replaces the spam keyword list.
func (h *BoardHandler) SetSpamKeywords(ctx context.Context, req api.SetSpamKeywordsRequestObject) (api.SetSpamKeywordsResponseObject, error) {
	keywords, err := SetSpamKeywords(ctx, db.New(h.pool), req.Body.Keywords)
	if err != nil {
		return nil, err
	}
	return api.SetSpamKeywords200JSONResponse{Keywords: keywords}, nil
}

// SetSpamKeywords stores the list, trimmed, without empty keywords and
// without repeats that differ only in case, and answers it as stored.
func SetSpamKeywords(ctx context.Context, q *db.Queries, keywords []string) ([]string, error) {
	clean := make([]string, 0, len(keywords))
	seen := map[string]bool{}
	for i, k := range keywords {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if err := text.CheckLine(fmt.Sprintf("/keywords/%d", i), k); err != nil {
			return nil, err
		}
		if f := fold(k); !seen[f] {
			seen[f] = true
			clean = append(clean, k)
		}
	}
	if err := settings.SetSpamKeywords(ctx, q, clean); err != nil {
		return nil, err
	}
	return clean, nil
}

func spamKeywords(ctx context.Context, q *db.Queries) ([]string, error) {
	return settings.SpamKeywords(ctx, q)
}

// fold maps text to its Unicode case-folded form, so that "ÄPFEL" matches
// "äpfel" and "STRASSE" matches "straße".
func fold(s string) string { return cases.Fold().String(s) }

// spamReasonTx answers SPAM when any of texts contains a spam keyword
// (case-insensitively), and nil otherwise.
func spamReasonTx(ctx context.Context, q *db.Queries, texts ...string) (*string, error) {
	keywords, err := spamKeywords(ctx, q)
	if err != nil || len(keywords) == 0 {
		return nil, err
	}
	if containsKeyword(keywords, texts...) {
		reason := blockedAsSpam
		return &reason, nil
	}
	return nil, nil
}

func containsKeyword(keywords []string, texts ...string) bool {
	folded := make([]string, len(texts))
	for i, t := range texts {
		folded[i] = fold(t)
	}
	for _, k := range keywords {
		fk := fold(k)
		for _, t := range folded {
			if strings.Contains(t, fk) {
				return true
			}
		}
	}
	return false
}
