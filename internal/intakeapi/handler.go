// Package intakeapi serves the intake operations that read drafts out of
// what a member has: free text (AI first, the rule parser of package intake
// as the fallback) and receipt images (OCR, then the rule parser). Nothing is
// saved. The parsing itself stays in package intake, which does no I/O.
//
// Each AI and OCR call counts against the member's daily limit of its kind
// (package quota), reserved before the call; no database connection is held
// while either service is called.
package intakeapi

import (
	"time"

	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/external/ai"
	"github.com/nestegg/nestegg/internal/external/ocr"
	"github.com/nestegg/nestegg/internal/quota"
)

// IntakeHandler implements the parse and receipt operations of the contract.
type IntakeHandler struct {
	ai    *ai.Client
	ocr   *ocr.Client
	meter *quota.Meter
	clock clock.Clock
	loc   *time.Location
}

// NewHandler returns the intake handler; loc is APP_TIMEZONE.
func NewHandler(aiClient *ai.Client, ocrClient *ocr.Client, meter *quota.Meter, clk clock.Clock, loc *time.Location) *IntakeHandler {
	return &IntakeHandler{ai: aiClient, ocr: ocrClient, meter: meter, clock: clk, loc: loc}
}
