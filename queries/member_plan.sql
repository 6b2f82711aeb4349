-- The member table's plan columns as billing changes them (purchase,
-- cancel, resume, restore, expiry). An administrator's permanent plan is
-- SetMemberPlanPermanent in member.sql.

-- name: SetMemberPlanSubscription :one
-- A store subscription: PREMIUM until expires_at, with its product and auto-renew.
UPDATE member
SET plan = 'PREMIUM', plan_expires_at = @expires_at, plan_product = @product,
    plan_auto_renew = @auto_renew, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: SetMemberPlanAutoRenew :one
-- Only a member with a store subscription has auto-renew to change; no row
-- back means there is none.
UPDATE member
SET plan_auto_renew = @auto_renew, updated_at = now()
WHERE id = @id AND plan = 'PREMIUM' AND plan_product IS NOT NULL AND plan_expires_at IS NOT NULL
RETURNING *;

-- name: DemoteExpiredMemberPlans :many
-- PREMIUM whose expiry has passed with auto-renew off becomes FREE with the
-- subscription fields cleared. Permanent plans (no expiry) and auto-renewing
-- ones are left alone.
UPDATE member
SET plan = 'FREE', plan_expires_at = NULL, plan_product = NULL, plan_auto_renew = false, updated_at = now()
WHERE plan = 'PREMIUM' AND plan_expires_at IS NOT NULL AND plan_expires_at <= @now::timestamptz AND NOT plan_auto_renew
RETURNING id;
