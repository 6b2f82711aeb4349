package intake

import (
	"time"

	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/external/ai"
	"github.com/nestegg/nestegg/internal/external/ocr"
	"github.com/nestegg/nestegg/internal/quota"
)

// DraftHandler implements the parse and receipt operations of the contract:
// it reads drafts out of free text (AI first, the rule parser as the
// fallback) and receipt images (OCR, then the rule parser). Nothing is saved.
//
// Each AI and OCR call counts against the member's daily limit of its kind
// (package quota), reserved before the call; no database connection is held
// while either service is called.
type DraftHandler struct {
	ai    *ai.Client
	ocr   *ocr.Client
	meter *quota.Meter
	clock clock.Clock
	loc   *time.Location
}

// NewDraftHandler returns the parse and receipt handler; loc is APP_TIMEZONE.
func NewDraftHandler(aiClient *ai.Client, ocrClient *ocr.Client, meter *quota.Meter, clk clock.Clock, loc *time.Location) *DraftHandler {
	return &DraftHandler{ai: aiClient, ocr: ocrClient, meter: meter, clock: clk, loc: loc}
}
