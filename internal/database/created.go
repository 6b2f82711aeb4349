package database

import "context"

// Created is the record a request created and committed on its own, as the
// request's handler notes it (NoteCreated): its id and the version the
// commit kept. A create's 201 carries the new record's ETag, which names
// that version; the versions middleware reads it in a request transaction
// around the handler unless the handler notes it. A create of one statement
// then commits in that statement: the request transaction made it four round
// trips (BEGIN, the create, the version read, COMMIT), and the connection
// was held meanwhile.
type Created struct {
	id, version int64
	noted       bool
}

type createdKey struct{}

// WithCreated gives ctx a Created in which the request's handler notes the
// record it creates.
func WithCreated(ctx context.Context) (context.Context, *Created) {
	c := &Created{}
	return context.WithValue(ctx, createdKey{}, c), c
}

// NotesCreated reports whether ctx asks its handler to note what it creates
// (WithCreated): a handler reads a version its statements did not answer
// only then.
func NotesCreated(ctx context.Context) bool {
	c, _ := ctx.Value(createdKey{}).(*Created)
	return c != nil
}

// NoteCreated notes the record the request created, at the version its
// commit kept: call it once the write has committed (or, with a request
// transaction, once it is the request's last write of the record). Without
// WithCreated it does nothing.
func NoteCreated(ctx context.Context, id, version int64) {
	if c, _ := ctx.Value(createdKey{}).(*Created); c != nil {
		c.id, c.version, c.noted = id, version, true
	}
}

// Version answers the version noted for the record id, if its handler noted
// one.
func (c *Created) Version(id int64) (int64, bool) {
	if !c.noted || c.id != id {
		return 0, false
	}
	return c.version, true
}
