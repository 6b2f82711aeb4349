package board

import "time"

// The hot rule of SPEC.md: a post or comment created within one day with at
// least 50 up-votes is hot. Everything that decides hotness (the flag in
// answers, the list's hot posts, the comment order) goes through here.
const (
	hotWindow = 24 * time.Hour
	hotMinUp  = 50
	// maxHotPosts is how many hot posts lead the post list.
	maxHotPosts = 3
)

// isHot reports whether content created at createdAt with up up-votes is hot
// at now.
func isHot(createdAt time.Time, up int32, now time.Time) bool {
	return createdAt.After(hotSince(now)) && up >= hotMinUp
}

// hotSince is the creation time after which content can be hot at now; the
// queries take it as a parameter, the comment list hotMinUp too. The post
// list's vote mark is the schema's: post.hot_votes (up_count >= 50,
// schema/00004_board.sql) keys post_hot_idx, and TestHotMarkMatchesTheSchema holds
// it equal to hotMinUp.
func hotSince(now time.Time) time.Time { return now.Add(-hotWindow) }
