package server

import (
	"net/http"
	"testing"
)

// createdAt maps each operation that creates a versioned record to the path
// that answers the record: its 201 carries the new record's ETag.
var createdAt = map[string]string{
	"/api/account/wallets":           "/api/account/wallets/{id}",
	"/api/account/categories":        "/api/account/categories/{id}",
	"/api/account/tags":              "/api/account/tags/{id}",
	"/api/account/entries":           "/api/account/entries/{id}",
	"/api/account/recurrings":        "/api/account/recurrings/{id}",
	"/api/account/quick-entries":     "/api/account/quick-entries/{id}",
	"/api/account/budgets":           "/api/account/budgets/{id}",
	"/api/account/budgets/onetime":   "/api/account/budgets/onetime/{id}",
	"/api/account/transfers":         "/api/account/transfers/{id}",
	"/api/account/invest/stocks":     "/api/account/invest/stocks/{id}",
	"/api/account/invest/trades":     "/api/account/invest/trades/{id}",
	"/api/board/posts":               "/api/board/posts/{id}",
	"/api/board/posts/{id}/comments": "/api/board/comments/{id}",
}

// idempotencyParam is the shared parameter an operation declares to take an
// Idempotency-Key.
const idempotencyParam = "#/components/parameters/IdempotencyKey"

// The contract declares the answer headers the handlers and the GET
// middleware set, exactly where they set them, so generated clients can
// read them: ETag on the 2xx of every versioned record's GET and PUT and of
// every create of one (versioned, createdAt), Idempotent-Replayed on the
// 2xx of every operation that takes an Idempotency-Key. (That every one of
// them is set is TestEveryCreateReplays' and TestEveryWriteChecksIfMatch's.)
func TestContractDeclaresTheAnswerHeadersTheMiddlewareSets(t *testing.T) {
	doc, err := ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	const etagRef, replayedRef = "#/components/headers/ETag", "#/components/headers/IdempotentReplayed"
	checked := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			_, isVersioned := versioned[path]
			_, creates := createdAt[path]
			wantETag := isVersioned && (method == http.MethodGet || method == http.MethodPut)
			wantETagOn201 := creates && method == http.MethodPost
			wantReplayed := false
			for _, p := range op.Parameters {
				wantReplayed = wantReplayed || p.Ref == idempotencyParam
			}
			for status, resp := range op.Responses.Map() {
				if len(status) != 3 || status[0] != '2' || resp.Value == nil {
					continue
				}
				want := map[string]bool{
					"ETag":                wantETag || (wantETagOn201 && status == "201"),
					"Idempotent-Replayed": wantReplayed,
				}
				refs := map[string]string{"ETag": etagRef, "Idempotent-Replayed": replayedRef}
				for name, w := range want {
					h, declared := resp.Value.Headers[name]
					if op.OperationID == "getBoardImage" && name == "ETag" {
						continue // an image's own tag, declared inline
					}
					switch {
					case w && !declared:
						t.Errorf("%s %s (%s) %s: the middleware sets %s; the contract does not declare it", method, path, op.OperationID, status, name)
					case !w && declared:
						t.Errorf("%s %s (%s) %s: the contract declares %s; nothing sets it", method, path, op.OperationID, status, name)
					case w && h.Ref != refs[name]:
						t.Errorf("%s %s (%s) %s: %s is %q, want the shared %q", method, path, op.OperationID, status, name, h.Ref, refs[name])
					case w:
						checked++
					}
				}
			}
		}
	}
	// 19 ETags on versioned GETs and PUTs, 13 on creates, 16
	// Idempotent-Replayed: a change here is a change of the contract.
	if checked != 48 {
		t.Errorf("checked %d declarations, want 48: the maps or the contract changed", checked)
	}
}

// The ETag of every versioned record with a GET in the contract carries
// the digest of its answer, and only of those: a record without a GET has
// no If-None-Match to serve, and its 412 has no answer to digest.
func TestVersionedRecordsAnsweredAsTheContractSays(t *testing.T) {
	doc, err := ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	for path, vt := range versioned {
		item := doc.Paths.Find(path)
		if item == nil {
			t.Errorf("%s: not in the contract", path)
			continue
		}
		if has := item.Get != nil; has != vt.answered {
			t.Errorf("%s: GET in the contract %v, answered %v", path, has, vt.answered)
		}
	}
}
