// Package intakeapi serves the intake operations that read drafts out of
// what a member has: free text (AI first, the rule parser of package intake
// as the fallback) and receipt images (OCR, then the rule parser). Nothing is
// saved. The parsing itself stays in package intake, which does no I/O.
package intakeapi

import (
	"time"

	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/external/ai"
	"github.com/nestegg/nestegg/internal/external/ocr"
)

// IntakeHandler implements the parse and receipt operations of the contract.
type IntakeHandler struct {
	ai    *ai.Client
	ocr   *ocr.Client
	clock clock.Clock
	loc   *time.Location
}

// NewHandler returns the intake handler; loc is APP_TIMEZONE.
func NewHandler(aiClient *ai.Client, ocrClient *ocr.Client, clk clock.Clock, loc *time.Location) *IntakeHandler {
	return &IntakeHandler{ai: aiClient, ocr: ocrClient, clock: clk, loc: loc}
}
