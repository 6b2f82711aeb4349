package profile_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 50, area: "board", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		other := env.NewMember()
		var theirs, mine api.Post
		other.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "community", Title: "theirs", Body: "b"}).
			Want(http.StatusCreated).JSON(&theirs)
		var theirComment api.Comment
		other.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/comments", theirs.ID), api.CommentRequest{Body: "c"}).
			Want(http.StatusCreated).JSON(&theirComment)

		// board_image
		var buf, form bytes.Buffer
		if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
			t.Fatal(err)
		}
		w := multipart.NewWriter(&form)
		part, _ := w.CreateFormFile("file", "a.png")
		part.Write(buf.Bytes())
		w.Close()
		var img api.ImageURL
		m.Send(http.MethodPost, "/api/board/images", w.FormDataContentType(), form.Bytes()).Want(http.StatusCreated).JSON(&img)
		// post
		urls := []string{img.URL}
		m.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "tips", Title: "mine", Body: "b", ImageUrls: &urls}).
			Want(http.StatusCreated).JSON(&mine)
		// comment
		m.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/comments", theirs.ID), api.CommentRequest{Body: "mine"}).Want(http.StatusCreated)
		// post_vote, comment_vote
		up := api.VoteRequest{Direction: api.VoteDirectionUp}
		m.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/vote", theirs.ID), up).Want(http.StatusOK)
		m.Do(http.MethodPost, fmt.Sprintf("/api/board/comments/%d/vote", theirComment.ID), up).Want(http.StatusOK)
		// report
		m.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/report", theirs.ID), nil).Want(http.StatusNoContent)
		m.Do(http.MethodPost, fmt.Sprintf("/api/board/comments/%d/report", theirComment.ID), nil).Want(http.StatusNoContent)
	}})
}
