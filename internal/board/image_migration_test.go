package board_test

import (
	"testing"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/schema"
)

// Migration 00160 moves existing data-URL avatars into served images and
// records the images existing posts show.
func TestImageUseMigration(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	pool := dbtest.NewPool(t)
	sqlDB := stdlib.OpenDBFromPool(pool)
	defer sqlDB.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, schema.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.ApplyVersion(ctx, 160, false); err != nil {
		t.Fatal(err)
	}
	const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII="
	for _, sql := range []string{
		`INSERT INTO member (email, name, profile_image) VALUES ('a@x.example', 'a', 'data:image/png;base64,` + pixel + `'), ('b@x.example', 'b', NULL)`,
		`INSERT INTO board_image (id, member_id, content_type, data, sha256, created_at)
		 VALUES ('0b5c8c0e-6f5e-4a57-9f0e-0d5d0a3e9f11', (SELECT id FROM member WHERE name = 'b'), 'image/png', '\x00', 'x', now())`,
		`INSERT INTO post (member_id, category, title, body, image_urls, created_at, updated_at)
		 VALUES ((SELECT id FROM member WHERE name = 'b'), 'tips', 't', 'b', ARRAY[
		   'http://localhost:8080/api/images/0b5c8c0e-6f5e-4a57-9f0e-0d5d0a3e9f11',
		   'http://localhost:8080/api/images/0b5c8c0e-6f5e-4a57-9f0e-0d5d0a3e9f12'], now(), now())`,
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := provider.ApplyVersion(ctx, 160, true); err != nil {
		t.Fatal(err)
	}

	var images []string
	rows, err := pool.Query(ctx, `SELECT image_id::text FROM post_image`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		images = append(images, id)
	}
	if rows.Err() != nil || len(images) != 1 || images[0] != "0b5c8c0e-6f5e-4a57-9f0e-0d5d0a3e9f11" {
		t.Fatalf("post images %v (%v)", images, rows.Err())
	}

	var contentType, data string
	var tagOK bool
	err = pool.QueryRow(ctx, `SELECT i.content_type, replace(encode(i.data, 'base64'), E'\n', ''), i.sha256 = encode(sha256(i.data), 'hex')
		FROM member m JOIN board_image i ON i.id = m.profile_image_id WHERE m.name = 'a'`).Scan(&contentType, &data, &tagOK)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "image/png" || data != pixel || !tagOK {
		t.Fatalf("moved avatar %s %q tag %v", contentType, data, tagOK)
	}
	var withoutAvatar int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM member WHERE name = 'b' AND profile_image_id IS NULL`).Scan(&withoutAvatar); err != nil || withoutAvatar != 1 {
		t.Fatalf("member without avatar: %d %v", withoutAvatar, err)
	}
}
