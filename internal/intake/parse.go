package intake

import (
	"context"
	"errors"
	"log/slog"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/external/ai"
	"github.com/nestegg/nestegg/internal/intake/parser"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/quota"
	"github.com/nestegg/nestegg/internal/session"
)

// maxTextRunes repeats the contract's maxLength of /text (a text to parse, a
// notification) for callers that are not the HTTP layer.
const maxTextRunes = 2000

// Draft is a parsed entry and the parser that produced it.
type Draft struct {
	Type     string
	Amount   int64
	Merchant string
	Date     time.Time
	Parser   string // AI or RULES
}

// ParseEntryText answers the draft read out of the text.
func (h *DraftHandler) ParseEntryText(ctx context.Context, req api.ParseEntryTextRequestObject) (api.ParseEntryTextResponseObject, error) {
	d, err := h.Parse(ctx, session.PrincipalFrom(ctx).MemberID, req.Body.Text)
	if err != nil {
		return nil, err
	}
	return api.ParseEntryText200JSONResponse{
		Type: api.ParsedEntryType(d.Type), Amount: d.Amount, Merchant: d.Merchant,
		Date: openapi_types.Date{Time: d.Date}, Parser: api.ParserName(d.Parser),
	}, nil
}

// Parse reads an entry out of text: the AI model first, the rule parser
// when AI is not configured, fails, is too slow, answers garbage or finds
// nothing. A text in which neither finds an amount is a 400 on /text. An AI
// call counts against the member's daily AI limit: over it the answer is 429,
// not the rule parser's (a client told to slow down learns it).
func (h *DraftHandler) Parse(ctx context.Context, memberID int64, text string) (Draft, error) {
	if len([]rune(text)) > maxTextRunes {
		return Draft{}, problem.Invalid("/text", "must be at most 2000 characters")
	}
	now := h.clock.Now().In(h.loc)
	if h.ai.Configured() {
		if err := h.meter.Reserve(ctx, memberID, quota.AI); err != nil {
			return Draft{}, err
		}
		d, err := h.ai.ParseEntry(ctx, text, now)
		if err == nil {
			return Draft{Type: d.Type, Amount: d.Amount, Merchant: d.Merchant, Date: d.Date, Parser: "AI"}, nil
		}
		if ctx.Err() != nil {
			return Draft{}, ctx.Err()
		}
		if !errors.Is(err, ai.ErrNothingFound) {
			slog.WarnContext(ctx, "AI parser failed; the rule parser answers", "error", err)
		}
	}
	d, ok := parser.ParseText(text, now)
	if !ok {
		return Draft{}, problem.Invalid("/text", "no amount found in the text")
	}
	return Draft{
		Type: string(d.Type), Amount: d.Amount, Merchant: d.Merchant,
		Date: calendar.Day(d.Date, h.loc), Parser: "RULES",
	}, nil
}
