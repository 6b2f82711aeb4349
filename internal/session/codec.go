package session

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"time"
)

// values is everything a session holds. The session is encoded as this
// struct, not as scs's gob-encoded map: decoding a fixed struct is a fraction
// of gob's cost, on every authenticated request.
type values struct {
	Deadline time.Time `json:"d"`
	MemberID int64     `json:"m"`
	Name     string    `json:"n,omitempty"`
	Role     string    `json:"r,omitempty"`
	Plan     string    `json:"p,omitempty"`
	// Epoch is the member's session epoch at sign-in; a newer member epoch
	// ends the session.
	Epoch int64 `json:"e"`
}

// Keys of the session's values in scs.
const (
	keyMemberID = "memberID"
	keyName     = "name"
	keyRole     = "role"
	keyPlan     = "plan"
	keyEpoch    = "epoch"
)

// codec is the scs.Codec of values. An undecodable session (corrupt, or
// written by an incompatible version) reads as an empty one, so its holder is
// signed out instead of answered 500 until it expires.
type codec struct{}

func (codec) Encode(deadline time.Time, m map[string]any) ([]byte, error) {
	v := values{Deadline: deadline}
	for k, x := range m {
		var ok bool
		switch k {
		case keyMemberID:
			v.MemberID, ok = x.(int64)
		case keyEpoch:
			v.Epoch, ok = x.(int64)
		case keyName:
			v.Name, ok = x.(string)
		case keyRole:
			v.Role, ok = x.(string)
		case keyPlan:
			v.Plan, ok = x.(string)
		}
		if !ok {
			return nil, fmt.Errorf("session value %q of type %T cannot be stored", k, x)
		}
	}
	return json.Marshal(v)
}

func (codec) Decode(b []byte) (time.Time, map[string]any, error) {
	v, err := decodeValues(b)
	if err != nil {
		slog.Warn("unreadable session; treating it as signed out", "error", err)
		return time.Now(), map[string]any{}, nil
	}
	return v.Deadline, map[string]any{
		keyMemberID: v.MemberID, keyEpoch: v.Epoch, keyName: v.Name, keyRole: v.Role, keyPlan: v.Plan,
	}, nil
}

func decodeValues(b []byte) (values, error) {
	var v values
	if err := json.Unmarshal(b, &v); err != nil {
		return values{}, fmt.Errorf("decode session: %w", err)
	}
	return v, nil
}
