-- name: InsertIAPPurchase :one
INSERT INTO iap_purchase (member_id, purchase_token, product_id, auto_renew, expires_at, store_expires_at, test_mode, created_at)
VALUES (@member_id, @purchase_token, @product_id, @auto_renew, @expires_at, @store_expires_at, @test_mode, @created_at)
RETURNING *;

-- name: IAPPurchaseTokenExists :one
SELECT EXISTS (SELECT 1 FROM iap_purchase WHERE purchase_token = @purchase_token);

-- name: GetLatestIAPPurchase :one
-- The member's purchase that paid for the latest expiry.
SELECT * FROM iap_purchase
WHERE member_id = @member_id
ORDER BY expires_at DESC, id DESC
LIMIT 1;

-- name: SetLatestIAPPurchaseAutoRenew :exec
UPDATE iap_purchase SET auto_renew = @auto_renew
WHERE id = (
    SELECT p.id FROM iap_purchase p
    WHERE p.member_id = @member_id
    ORDER BY p.expires_at DESC, p.id DESC
    LIMIT 1
);

-- name: SetIAPPurchaseRenewed :exec
-- A renewal the store reported: the purchase now pays for the new expiry,
-- so a restore on another device grants up to it.
UPDATE iap_purchase
SET expires_at = @expires_at, store_expires_at = @expires_at, auto_renew = @auto_renew
WHERE purchase_token = @purchase_token;
