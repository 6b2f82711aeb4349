// Package problem is the service's one error contract: domain code returns an
// *Error (or wraps one), and Write turns any error into an RFC 9457
// application/problem+json answer with a stable code. Nothing else writes
// error responses.
package problem

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Stable codes a client can switch on; the contract lists the same set.
const (
	CodePremiumRequired      = "PREMIUM_REQUIRED"
	CodeFreeLimitExceeded    = "FREE_LIMIT_EXCEEDED"
	CodeValidationFailed     = "VALIDATION_FAILED"
	CodeUnauthenticated      = "UNAUTHENTICATED"
	CodeForbidden            = "FORBIDDEN"
	CodeNotFound             = "NOT_FOUND"
	CodeMethodNotAllowed     = "METHOD_NOT_ALLOWED"
	CodeConflict             = "CONFLICT"
	CodeIdempotencyInFlight  = "IDEMPOTENCY_KEY_IN_FLIGHT"
	CodeRateLimited          = "RATE_LIMITED"
	CodeSignupDisabled       = "SIGNUP_DISABLED"
	CodeSamePassword         = "SAME_PASSWORD"
	CodeWrongPassword        = "WRONG_PASSWORD"
	CodeSocialAccount        = "SOCIAL_ACCOUNT"
	CodeSelfAdminChange      = "SELF_ADMIN_CHANGE"
	CodePayloadTooLarge      = "PAYLOAD_TOO_LARGE"
	CodeUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	CodeServiceUnavailable   = "SERVICE_UNAVAILABLE"
	CodeTimeout              = "TIMEOUT"
	CodeInternal             = "INTERNAL"
	CodeOCRNotConfigured     = "OCR_NOT_CONFIGURED"
	CodeFXNotConfigured      = "FX_NOT_CONFIGURED"
	CodeQuotesNotConfigured  = "QUOTES_NOT_CONFIGURED"
	CodeSelfVote             = "SELF_VOTE"
	CodeSelfReport           = "SELF_REPORT"
	CodeAlreadyReported      = "ALREADY_REPORTED"
	CodeNegativeHolding      = "NEGATIVE_HOLDING"
	CodeCategoryHierarchy    = "CATEGORY_HIERARCHY"
	CodeDuplicatePurchase    = "DUPLICATE_PURCHASE"
	CodeEmptyBackup          = "EMPTY_BACKUP"
)

// Codes an area adds go in its block below (and in the contract's
// ProblemCode list, in the same area's block), so areas built side by side
// never edit the same lines.
const (
	// ledger codes
	// (end of ledger codes)
	// budget codes
	// (end of budget codes)
	// invest codes
	// (end of invest codes)
	// board codes
	// (end of board codes)
	// billing codes
	CodePurchaseInvalid      = "PURCHASE_INVALID"
	CodePurchaseNotActive    = "PURCHASE_NOT_ACTIVE"
	CodeNoSubscription       = "NO_SUBSCRIPTION"
	CodeNoRestorablePurchase = "NO_RESTORABLE_PURCHASE"

	// (end of billing codes)
	// intake codes
	// (end of intake codes)
	// transfer codes
	// (end of transfer codes)
	// idempotency and concurrency codes (issue 22)
	// CodeIdempotencyKeyReused: an Idempotency-Key sent again with another request.
	CodeIdempotencyKeyReused = "IDEMPOTENCY_KEY_REUSED"
	// CodePreconditionFailed: If-Match names a version the record no longer has.
	CodePreconditionFailed = "PRECONDITION_FAILED"
	// (end of idempotency and concurrency codes)
	// money codes
	// CodeTotalOutOfRange: a total an answer needs is beyond int64 (issue 18).
	CodeTotalOutOfRange = "TOTAL_OUT_OF_RANGE"

// (end of money codes)
)

// Outages (DECISIONS §10, contract 2.2.0): a dependency that cannot be
// reached is CodeDependencyUnavailable; CodeServiceUnavailable is left to
// the service itself being unable to take the request now (at its limit of
// heavy work or of password checks, rows busy twice, a cancelled request,
// a sign-in method or a store that is not configured). Before 2.2.0
// SERVICE_UNAVAILABLE named dependency outages too.
const (
	// CodeDependencyUnavailable: PostgreSQL, Redis or an outside service
	// (identity provider, store, FX, OCR) cannot be reached right now.
	CodeDependencyUnavailable = "DEPENDENCY_UNAVAILABLE"
)

// FieldError names one invalid part of a request. Field says which, in one
// string the service's code writes easily; the answer splits it into the
// contract's distinct properties (MarshalJSON), so a form maps a body field
// and a query, path or header parameter without guessing:
//
//   - "/a/0/b", a JSON pointer (RFC 6901) into the body, or the name of a
//     multipart form's part written as one ("/file"): `pointer`;
//   - Body: the body as a whole (malformed JSON, a missing body): `pointer` "";
//   - Request, the empty string: the request as a whole (its path, say):
//     neither;
//   - any other string: the name of a parameter: `parameter`.
type FieldError struct {
	Field   string
	Message string
}

const (
	// Body names the request body as a whole.
	Body = "body"
	// Request names the request as a whole.
	Request = ""
)

// MarshalJSON writes the contract's FieldError: pointer or parameter, and
// message.
func (f FieldError) MarshalJSON() ([]byte, error) {
	type pointer struct {
		Pointer string `json:"pointer"`
		Message string `json:"message"`
	}
	type parameter struct {
		Parameter string `json:"parameter"`
		Message   string `json:"message"`
	}
	type whole struct {
		Message string `json:"message"`
	}
	switch {
	case f.Field == Body:
		return json.Marshal(pointer{Pointer: "", Message: f.Message})
	case strings.HasPrefix(f.Field, "/"):
		return json.Marshal(pointer{Pointer: f.Field, Message: f.Message})
	case f.Field == Request:
		return json.Marshal(whole{Message: f.Message})
	default:
		return json.Marshal(parameter{Parameter: f.Field, Message: f.Message})
	}
}

// Error is an expected failure with its HTTP status and stable code.
type Error struct {
	Status int
	Code   string
	Detail string
	Fields []FieldError
	// Truncated says Fields are only the first of more invalid fields
	// (errorsTruncated in the answer, which also cuts Fields to
	// MaxFieldErrors).
	Truncated bool
	// ExistingID names the record a create collided with (a 409 CONFLICT
	// on a record that already exists): existingId in the answer.
	ExistingID int64
	// Headers are set on the answer (Retry-After, say).
	Headers map[string]string
	// Err is the cause, kept for logs; it is never shown to the client.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Detail, e.Err)
	}
	return e.Code + ": " + e.Detail
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an error with the given status, code and detail.
func New(status int, code, detail string) *Error {
	return &Error{Status: status, Code: code, Detail: detail}
}

// Invalid is a 400 VALIDATION_FAILED naming one field.
func Invalid(field, message string) *Error {
	return &Error{
		Status: http.StatusBadRequest,
		Code:   CodeValidationFailed,
		Detail: field + ": " + message,
		Fields: []FieldError{{Field: field, Message: message}},
	}
}

// NotFound is a 404 for a record that does not exist or is not the caller's.
func NotFound(what string) *Error {
	return New(http.StatusNotFound, CodeNotFound, what+" not found")
}

// Conflict is a 409 with a specific code.
func Conflict(code, detail string) *Error {
	return New(http.StatusConflict, code, detail)
}

// Unavailable is a 503 for an external service that is not configured or not
// reachable; cause is logged, not shown.
func Unavailable(code, detail string, cause error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: code, Detail: detail, Err: cause}
}

// As returns the *Error inside err, if any.
func As(err error) (*Error, bool) {
	var pe *Error
	if errors.As(err, &pe) {
		return pe, true
	}
	return nil, false
}
