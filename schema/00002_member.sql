-- +goose Up
CREATE TABLE member (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- NULL for an identity-provider member whose provider gave no verified e-mail.
    email           text,
    -- argon2id PHC string; NULL for members that only sign in through a provider.
    password_hash   text,
    name            text        NOT NULL,
    role            text        NOT NULL DEFAULT 'USER'   CHECK (role IN ('USER', 'ADMIN')),
    status          text        NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'SUSPENDED')),
    -- Account origin; kept unchanged when another identity is linked later.
    provider        text        NOT NULL DEFAULT 'LOCAL'  CHECK (provider IN ('LOCAL', 'IDP_A', 'IDP_B')),
    idp_a_id        text UNIQUE,
    idp_b_id        text UNIQUE,
    idp_a_picture   text,
    profile_image   text,
    plan            text        NOT NULL DEFAULT 'FREE'   CHECK (plan IN ('FREE', 'PREMIUM')),
    -- NULL with PREMIUM means a permanent plan set by an administrator.
    plan_expires_at timestamptz,
    plan_product    text,
    plan_auto_renew boolean     NOT NULL DEFAULT false,
    points          bigint      NOT NULL DEFAULT 0 CHECK (points >= 0),
    -- Sessions that signed in before this moment are no longer valid (password
    -- change ends the other sessions). Checked on every request, so an
    -- in-flight request that re-commits an ended session cannot revive it.
    sessions_revoked_at timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

-- E-mail is the linking key for identity providers: one member per address,
-- compared case-insensitively.
CREATE UNIQUE INDEX member_email_key ON member (lower(email)) WHERE email IS NOT NULL;
-- The hourly expiry job scans only expiring PREMIUM members.
CREATE INDEX member_plan_expiry_idx ON member (plan_expires_at) WHERE plan = 'PREMIUM' AND plan_expires_at IS NOT NULL;

-- +goose Down
DROP TABLE member;
