package server

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/nestegg/nestegg/internal/problem"
)

// ProblemCodes returns the codes an operation lists per status in its
// x-problem-codes extension (none when it has no extension).
func ProblemCodes(op *openapi3.Operation) (map[int][]string, error) {
	raw, ok := op.Extensions["x-problem-codes"]
	if !ok {
		return nil, nil
	}
	byStatus, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("x-problem-codes is not a map of status to codes")
	}
	out := make(map[int][]string, len(byStatus))
	for key, v := range byStatus {
		status, err := strconv.Atoi(key)
		if err != nil || status < 400 || status > 599 {
			return nil, fmt.Errorf("x-problem-codes: %q is not an error status", key)
		}
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return nil, fmt.Errorf("x-problem-codes %q: want a non-empty list of codes", key)
		}
		for _, c := range list {
			code, ok := c.(string)
			if !ok || code == "" {
				return nil, fmt.Errorf("x-problem-codes %q: %v is not a code", key, c)
			}
			out[status] = append(out[status], code)
		}
	}
	return out, nil
}

// ImpliedProblemCodes are the codes any operation of the access level may
// answer with status without listing them: the contract layer's own answers
// (access gate, body limit, media type, validation, unknown method) and the
// generic failures.
func ImpliedProblemCodes(status int, access string) []string {
	switch status {
	case http.StatusBadRequest:
		return []string{problem.CodeValidationFailed}
	case http.StatusUnauthorized:
		return []string{problem.CodeUnauthenticated}
	case http.StatusForbidden:
		switch access {
		case AccessAdmin:
			return []string{problem.CodeForbidden}
		case AccessPremium:
			return []string{problem.CodePremiumRequired}
		}
	case http.StatusMethodNotAllowed:
		return []string{problem.CodeMethodNotAllowed}
	case http.StatusRequestEntityTooLarge:
		return []string{problem.CodePayloadTooLarge}
	case http.StatusUnsupportedMediaType:
		return []string{problem.CodeUnsupportedMediaType}
	case http.StatusInternalServerError:
		return []string{problem.CodeInternal}
	case http.StatusServiceUnavailable:
		return []string{problem.CodeDependencyUnavailable, problem.CodeServiceUnavailable, problem.CodeTimeout}
	}
	return nil
}

// AllowedProblemCodes are the codes op may answer with status: the implied
// ones and the ones it lists, sorted.
func AllowedProblemCodes(op *openapi3.Operation, status int) ([]string, error) {
	access, err := OperationAccess(op)
	if err != nil {
		return nil, err
	}
	listed, err := ProblemCodes(op)
	if err != nil {
		return nil, err
	}
	out := append(ImpliedProblemCodes(status, access), listed[status]...)
	sort.Strings(out)
	return out, nil
}
