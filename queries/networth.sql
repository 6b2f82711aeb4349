-- name: WalletNets :many
-- What the balances of the trend's days need from the rollup (wallet_net,
-- the ledger's, kept by triggers on account_entry): each wallet's total,
-- its months starting after @month_after and its weeks starting after
-- @week_after (NULL for none; a total's start is NULL), and as period 'part' the net of its entries
-- after part_after[i] and before part_before[i] (start = part_after[i]): a
-- day that does not end its month or week (today) takes off the entries
-- dated after it in its own week; as period 'delta' (start = its day) the
-- nets not folded into wallet_net yet (a write made while another of the
-- member's was folding; the next write folds them). Each branch is an index
-- range scan, so the rows read are the trend's periods × wallets, whatever
-- the history. The parts are a LATERAL per range so that the range bounds
-- the entries' index scan in the generic plan too (pgx prepares statements,
-- and PostgreSQL plans them generically after five runs: a join of the
-- unnest with the entries then read all of a member's entries by
-- account_entry_category_idx, 10,297 rows for a 5-year member).
SELECT t.period, t.wallet_id, NULL::date AS start, t.net FROM wallet_net t
WHERE t.member_id = @member_id AND t.period = 'total'
UNION ALL
SELECT m.period, m.wallet_id, m.start, m.net FROM wallet_net m
WHERE m.member_id = @member_id AND m.period = 'month' AND m.start > sqlc.narg(month_after)::date
UNION ALL
SELECT w.period, w.wallet_id, w.start, w.net FROM wallet_net w
WHERE w.member_id = @member_id AND w.period = 'week' AND w.start > sqlc.narg(week_after)::date
UNION ALL
SELECT 'part', p.wallet_id, r.after, p.net
FROM (SELECT unnest(@part_after::date[]) AS after, unnest(@part_before::date[]) AS before) AS r
CROSS JOIN LATERAL (
    SELECT e.wallet_id::bigint AS wallet_id,
           SUM(CASE WHEN e.type = 'income' THEN e.amount ELSE -e.amount END)::numeric AS net
    FROM account_entry e
    WHERE e.member_id = @member_id AND e.entry_date > r.after AND e.entry_date < r.before
      AND NOT e.pending AND e.wallet_id IS NOT NULL
    GROUP BY e.wallet_id) p
UNION ALL
SELECT 'delta', d.wallet_id, d.day, d.net FROM wallet_net_delta d
WHERE d.member_id = @member_id;

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
