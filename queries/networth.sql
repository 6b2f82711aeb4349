-- name: WalletBalancesOn :many
-- Each wallet's net of confirmed entries (transfers included) up to each
-- day, in one pass whatever the number of days.
SELECT d.day::date AS day, e.wallet_id::bigint AS wallet_id,
       SUM(CASE WHEN e.type = 'income' THEN e.amount ELSE -e.amount END)::numeric AS net
FROM unnest(@days::date[]) AS d(day)
JOIN account_entry e ON e.member_id = @member_id AND NOT e.pending
    AND e.wallet_id IS NOT NULL AND e.entry_date <= d.day
GROUP BY d.day, e.wallet_id;

-- name: QuotesOn :many
-- The last stored quote on or before each day of each code.
SELECT d.day::date AS day, c.code::text AS code, q.price
FROM unnest(@days::date[]) AS d(day)
CROSS JOIN unnest(@codes::text[]) AS c(code)
JOIN LATERAL (
    SELECT price FROM stock_quote
    WHERE stock_quote.code = c.code AND stock_quote.quote_day <= d.day
    ORDER BY quote_day DESC LIMIT 1
) q ON true;

-- name: NetWorthWallets :many
SELECT id, type, opening_balance, manual_valuation, current_value,
       loan_amount, loan_rate, loan_method, loan_months, loan_start, loan_payment
FROM wallet WHERE member_id = @member_id;
