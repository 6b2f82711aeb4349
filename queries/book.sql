-- Household books (internal/book, issue 44). A book's records live in the
-- ledger of its ledger owner (book.ledger_member_id, a member row of kind
-- BOOK); these queries keep the books, their members, invitations and
-- settled months.

-- name: LockMemberBooks :exec
-- Serialises a member's book creations and joins, so the per-member limit
-- (BOOKS_PER_MEMBER) is counted and reserved in one step.
SELECT pg_advisory_xact_lock(hashtextextended('books:' || @member_id::bigint, 0));

-- name: CountMemberBooks :one
SELECT count(*) FROM book_member WHERE member_id = @member_id AND left_at IS NULL;

-- name: CreateBook :one
INSERT INTO book (ledger_member_id, name, created_at)
VALUES (@ledger_member_id, @name, @created_at)
RETURNING *;

-- name: AddBookMember :execrows
-- Adds a member to a book, or brings back one who left (a new joined_at:
-- they stand behind everyone who stayed). No row when they are a current
-- member already.
INSERT INTO book_member (book_id, member_id, role, weight, joined_at)
VALUES (@book_id, @member_id, @role, 1, @joined_at)
ON CONFLICT (book_id, member_id) DO UPDATE
SET role = EXCLUDED.role, weight = 1, joined_at = EXCLUDED.joined_at, left_at = NULL
WHERE book_member.left_at IS NOT NULL;

-- name: GetBookAccess :one
-- What a request with X-Book-Id needs, in one statement: the book's ledger
-- owner and month start day, the caller's role (no row when the caller is
-- not a current member of the book, or there is no such book), and whether
-- a current OWNER has PREMIUM (the book's gates follow its owner's plan).
SELECT b.id, b.ledger_member_id, lm.month_start_day, bm.role,
    EXISTS (SELECT 1 FROM book_member o JOIN member om ON om.id = o.member_id
        WHERE o.book_id = b.id AND o.left_at IS NULL AND o.role = 'OWNER'
          AND om.status = 'ACTIVE' AND (om.plan = 'PREMIUM' OR om.role = 'ADMIN'))::boolean AS owner_premium
FROM book b
JOIN book_member bm ON bm.book_id = b.id AND bm.member_id = @member_id AND bm.left_at IS NULL
JOIN member lm ON lm.id = b.ledger_member_id
WHERE b.id = @book_id;

-- name: GetBook :one
SELECT b.id, b.ledger_member_id, b.name, b.created_at, lm.month_start_day
FROM book b JOIN member lm ON lm.id = b.ledger_member_id
WHERE b.id = @id;

-- name: LockBook :one
-- Serialises the membership changes of one book (joins, role changes,
-- removals, handover, deletion): taken first, before any member's lock.
SELECT id, ledger_member_id FROM book WHERE id = @id FOR UPDATE;

-- name: ListMemberBooks :many
-- The books a member is in, oldest first.
SELECT b.id, b.name, lm.month_start_day, bm.role
FROM book_member bm
JOIN book b ON b.id = bm.book_id
JOIN member lm ON lm.id = b.ledger_member_id
WHERE bm.member_id = @member_id AND bm.left_at IS NULL
ORDER BY b.id;

-- name: ListBookMembers :many
-- A book's current members with their names, longest-standing first.
SELECT bm.member_id, m.name, bm.role, bm.weight, bm.joined_at
FROM book_member bm JOIN member m ON m.id = bm.member_id
WHERE bm.book_id = @book_id AND bm.left_at IS NULL
ORDER BY bm.joined_at, bm.member_id;

-- name: ListBooksMembers :many
-- ListBookMembers of several books at once (the list of mine).
SELECT bm.book_id, bm.member_id, m.name, bm.role, bm.weight, bm.joined_at
FROM book_member bm JOIN member m ON m.id = bm.member_id
WHERE bm.book_id = ANY(@book_ids::bigint[]) AND bm.left_at IS NULL
ORDER BY bm.book_id, bm.joined_at, bm.member_id;

-- name: ListBookRosterByLedger :many
-- Everyone who is or was in the book whose ledger owner is given, with
-- names, for attribution (a member who left: left true; a deleted account
-- has no row and is a former member too).
SELECT bm.member_id, m.name, bm.role, (bm.left_at IS NOT NULL)::boolean AS left_book
FROM book b
JOIN book_member bm ON bm.book_id = b.id
JOIN member m ON m.id = bm.member_id
WHERE b.ledger_member_id = @ledger_member_id
ORDER BY bm.joined_at, bm.member_id;

-- name: RenameBook :execrows
UPDATE book SET name = @name WHERE id = @id;

-- name: GetBookMemberForUpdate :one
SELECT * FROM book_member WHERE book_id = @book_id AND member_id = @member_id AND left_at IS NULL FOR UPDATE;

-- name: SetBookMemberRole :execrows
UPDATE book_member SET role = @role, weight = @weight
WHERE book_id = @book_id AND member_id = @member_id AND left_at IS NULL;

-- name: LeaveBook :execrows
UPDATE book_member SET left_at = @left_at::timestamptz
WHERE book_id = @book_id AND member_id = @member_id AND left_at IS NULL;

-- name: CountBookOwners :one
SELECT count(*) FROM book_member WHERE book_id = @book_id AND left_at IS NULL AND role = 'OWNER';

-- name: CountBookMembers :one
SELECT count(*) FROM book_member WHERE book_id = @book_id AND left_at IS NULL;

-- name: NextBookOwner :one
-- Who takes over when the last OWNER leaves: the longest-standing EDITOR,
-- else the longest-standing VIEWER (ties: the lower member id).
SELECT member_id FROM book_member
WHERE book_id = @book_id AND left_at IS NULL AND role <> 'OWNER'
ORDER BY CASE role WHEN 'EDITOR' THEN 0 ELSE 1 END, joined_at, member_id
LIMIT 1;

-- name: ListMemberBookIDs :many
-- The books a member is in, in id order (the lock order of account
-- deletion's handover).
SELECT book_id FROM book_member WHERE member_id = @member_id AND left_at IS NULL ORDER BY book_id;

-- name: CreateBookInvitation :one
INSERT INTO book_invitation (book_id, code_hash, role, created_by, created_at, expires_at)
VALUES (@book_id, @code_hash, @role, @created_by, @created_at, @expires_at)
RETURNING *;

-- name: GetBookInvitationForUpdate :one
-- An invitation that can still be accepted, locked: unused, not revoked,
-- not expired.
SELECT * FROM book_invitation
WHERE code_hash = @code_hash AND used_at IS NULL AND revoked_at IS NULL AND expires_at > @now
FOR UPDATE;

-- name: UseBookInvitation :execrows
UPDATE book_invitation SET used_at = @now::timestamptz, used_by = @used_by::bigint
WHERE id = @id AND used_at IS NULL AND revoked_at IS NULL;

-- name: RevokeBookInvitation :execrows
UPDATE book_invitation SET revoked_at = @now::timestamptz
WHERE book_id = @book_id AND code_hash = @code_hash AND used_at IS NULL AND revoked_at IS NULL;

-- name: SumBookPaid :many
-- What each member paid of the book's expenses in a period: confirmed
-- expenses, transfers' sides excluded (a transfer's fee is an expense and
-- counts). An entry without paid_by (written by a job, an import or a
-- restore) is the ledger's, reported with member id 0.
SELECT COALESCE(e.paid_by, 0)::bigint AS member_id, COALESCE(sum(e.amount), 0)::numeric AS paid
FROM account_entry e
WHERE e.member_id = @ledger_member_id AND e.type = 'expense' AND NOT e.pending AND e.transfer_id IS NULL
  AND e.entry_date >= @from_date AND e.entry_date < @to_date
GROUP BY 1
ORDER BY 1;

-- name: GetBookSettlement :one
SELECT * FROM book_settlement WHERE book_id = @book_id AND year = @year AND month = @month;

-- name: MarkBookSettled :one
INSERT INTO book_settlement (book_id, year, month, settled_at, settled_by)
VALUES (@book_id, @year, @month, @settled_at, @settled_by)
ON CONFLICT (book_id, year, month) DO UPDATE SET book_id = EXCLUDED.book_id
RETURNING *;

-- name: UnmarkBookSettled :execrows
DELETE FROM book_settlement WHERE book_id = @book_id AND year = @year AND month = @month;

-- name: HoldBookMember :one
-- A write's hold on its writer's membership (book.Select's Hold, taken by
-- the ledger's write lock step before the ledger lock): a share lock on the
-- writer's current book_member row, held to the commit, so a removal or a
-- role change (which update the row) waits for the writes in flight, and a
-- write that comes after them reads the row as they left it (no row: 404;
-- the role re-checked).
SELECT role FROM book_member
WHERE book_id = @book_id AND member_id = @member_id AND left_at IS NULL
FOR SHARE;
