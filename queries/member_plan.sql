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

-- name: ListLapsedAutoRenewPlans :many
-- PREMIUM plans past their expiry with auto-renew on, the store's to settle,
-- each with the purchase token that paid for its latest expiry. Oldest
-- expiry first, at most @max_rows a run.
SELECT m.id AS member_id, m.plan_expires_at::timestamptz AS expires_at, p.purchase_token, p.product_id, p.test_mode
FROM member m
JOIN LATERAL (
    SELECT ip.purchase_token, ip.product_id, ip.test_mode
    FROM iap_purchase ip
    WHERE ip.member_id = m.id
    ORDER BY ip.expires_at DESC, ip.id DESC
    LIMIT 1
) p ON true
WHERE m.plan = 'PREMIUM' AND m.plan_expires_at IS NOT NULL AND m.plan_expires_at <= @now::timestamptz AND m.plan_auto_renew
ORDER BY m.plan_expires_at, m.id
LIMIT @max_rows;

-- name: EndLapsedMemberPlan :one
-- The store says the subscription is over: FREE, subscription fields
-- cleared, only if the plan is still the lapsed one the job read (a purchase
-- or an administrator may have changed it since).
UPDATE member
SET plan = 'FREE', plan_expires_at = NULL, plan_product = NULL, plan_auto_renew = false, updated_at = now()
WHERE id = @id AND plan = 'PREMIUM' AND plan_expires_at = @expires_at::timestamptz AND plan_auto_renew
RETURNING id;

-- name: RenewLapsedMemberPlan :one
-- The store says the subscription renewed: PREMIUM until the store's
-- expiry, with its auto-renew, under the same condition as EndLapsedMemberPlan.
UPDATE member
SET plan_expires_at = @new_expires_at, plan_auto_renew = @auto_renew, updated_at = now()
WHERE id = @id AND plan = 'PREMIUM' AND plan_expires_at = @expires_at::timestamptz AND plan_auto_renew
RETURNING id;
