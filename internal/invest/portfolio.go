package invest

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/money"
)

// basisPlaces is the precision of the cost basis of a partial sell (the
// average cost times the shares sold); won rounding happens only at the end.
const basisPlaces = 16

var hundred = decimal.NewFromInt(100)

// Position is one stock's holding after replaying its trades in order.
type Position struct {
	Quantity decimal.Decimal
	// Cost is what the shares held cost, buy fees included (moving average).
	Cost decimal.Decimal
	// Realised is the profit of the sells: proceeds minus their fee minus
	// the average cost of the shares sold at the time.
	Realised decimal.Decimal
}

// Apply adds one trade to the position. A sell of more than is held answers
// false and leaves the position as it was.
func (p *Position) Apply(side string, quantity, price, fee decimal.Decimal) bool {
	if side == SideBuy {
		p.Quantity = p.Quantity.Add(quantity)
		p.Cost = p.Cost.Add(quantity.Mul(price)).Add(fee)
		return true
	}
	if quantity.GreaterThan(p.Quantity) {
		return false
	}
	basis := p.Cost
	if !quantity.Equal(p.Quantity) {
		basis = p.Cost.Mul(quantity).DivRound(p.Quantity, basisPlaces)
	}
	p.Realised = p.Realised.Add(quantity.Mul(price)).Sub(fee).Sub(basis)
	p.Quantity = p.Quantity.Sub(quantity)
	p.Cost = p.Cost.Sub(basis)
	if p.Quantity.IsZero() {
		// A closed position starts again: no cost left over from rounding.
		p.Cost = decimal.Zero
	}
	return true
}

// AverageCost is the cost per share held (zero when nothing is held).
func (p Position) AverageCost() decimal.Decimal {
	if p.Quantity.IsZero() {
		return decimal.Zero
	}
	return p.Cost.DivRound(p.Quantity, 6)
}

// Replay computes the position of a stock's trades, given in replay order.
func Replay(trades []db.InvestTrade) Position {
	var p Position
	for _, t := range trades {
		p.Apply(t.Side, t.Quantity, t.Price, t.Fee)
	}
	return p
}

// rate is profit as a percentage of invested, 2 decimals, or nil.
func rate(profit, invested int64) *string {
	if invested == 0 {
		return nil
	}
	s := decimal.NewFromInt(profit).Mul(hundred).DivRound(decimal.NewFromInt(invested), 2).StringFixed(2)
	return &s
}

// GetPortfolio answers the member's holdings with their profits.
func (h *InvestHandler) GetPortfolio(ctx context.Context, _ api.GetPortfolioRequestObject) (api.GetPortfolioResponseObject, error) {
	memberID := memberOf(ctx)
	q := db.New(h.pool)
	stocks, err := q.ListStocks(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("list stocks: %w", err)
	}
	ids := make([]int64, len(stocks))
	codes := make([]string, 0, len(stocks))
	for i, s := range stocks {
		ids[i] = s.ID
		codes = append(codes, s.Code)
	}
	trades, err := q.ListStockTradesInOrder(ctx, db.ListStockTradesInOrderParams{MemberID: memberID, StockIds: ids})
	if err != nil {
		return nil, fmt.Errorf("list trades: %w", err)
	}
	byStock := map[int64][]db.InvestTrade{}
	for _, t := range trades {
		byStock[t.StockID] = append(byStock[t.StockID], t)
	}
	quotes, err := q.LatestQuotes(ctx, codes)
	if err != nil {
		return nil, fmt.Errorf("latest quotes: %w", err)
	}
	quoteOf := map[string]db.LatestQuotesRow{}
	for _, r := range quotes {
		quoteOf[r.Code] = r
	}
	// Each trade is within the bound, but a holding is the sum of any
	// number of them: every won amount and total is checked.
	var c money.Checked
	out := api.Portfolio{Items: make([]api.Holding, len(stocks))}
	var totals api.PortfolioTotals
	for i, s := range stocks {
		p := Replay(byStock[s.ID])
		hd := holding(&c, s, p, quoteOf[s.Code])
		out.Items[i] = hd
		if s.Currency == h.base {
			c.Add(&totals.InvestedAmount, hd.InvestedAmount)
			c.Add(&totals.Valuation, hd.Valuation)
			c.Add(&totals.RealisedProfit, hd.RealisedProfit)
		}
	}
	totals.ValuationProfit = c.Sub(totals.Valuation, totals.InvestedAmount)
	if err := c.Err(); err != nil {
		return nil, err
	}
	totals.ValuationRate = rate(totals.ValuationProfit, totals.InvestedAmount)
	out.Totals = totals
	return api.GetPortfolio200JSONResponse(out), nil
}

func holding(c *money.Checked, s db.Stock, p Position, q db.LatestQuotesRow) api.Holding {
	hd := api.Holding{
		StockID: s.ID, Code: s.Code, Name: s.Name, Currency: s.Currency,
		Quantity: p.Quantity.String(), AverageCost: p.AverageCost().StringFixed(6),
		InvestedAmount: c.Won(p.Cost), RealisedProfit: c.Won(p.Realised),
	}
	if q.Code == "" {
		hd.ValuedAtCost = true
		hd.Valuation = hd.InvestedAmount
	} else {
		price := q.Price.String()
		at := q.QuotedAt.In(time.UTC)
		hd.QuotePrice, hd.QuoteTime = &price, &at
		hd.Valuation = c.Won(p.Quantity.Mul(q.Price))
	}
	hd.ValuationProfit = c.Sub(hd.Valuation, hd.InvestedAmount)
	hd.ValuationRate = rate(hd.ValuationProfit, hd.InvestedAmount)
	return hd
}
