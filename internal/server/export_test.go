package server

// VersionedPaths are the contract paths of the versioned records (the
// versioned map), each with whether a GET answers it: the If-Match sweep
// (TestEveryWriteChecksIfMatch) walks them.
func VersionedPaths() map[string]bool {
	out := make(map[string]bool, len(versioned))
	for path, vt := range versioned {
		out[path] = vt.answered
	}
	return out
}
