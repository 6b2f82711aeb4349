// Package server assembles the HTTP service: the contract-driven request path
// (request id, access log, metrics, panic recovery, session, routing, access,
// body limits, validation) in front of the strict handlers of each area.
package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"path"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	apigen "github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/admin"
	"github.com/nestegg/nestegg/internal/auth"
	"github.com/nestegg/nestegg/internal/backup"
	"github.com/nestegg/nestegg/internal/billing"
	"github.com/nestegg/nestegg/internal/board"
	"github.com/nestegg/nestegg/internal/book"
	"github.com/nestegg/nestegg/internal/budget"
	"github.com/nestegg/nestegg/internal/cards"
	"github.com/nestegg/nestegg/internal/changes"
	"github.com/nestegg/nestegg/internal/csvio"
	"github.com/nestegg/nestegg/internal/forecast"
	"github.com/nestegg/nestegg/internal/heavy"
	"github.com/nestegg/nestegg/internal/intake"
	"github.com/nestegg/nestegg/internal/invest"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/points"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/profile"
	"github.com/nestegg/nestegg/internal/rates"
	"github.com/nestegg/nestegg/internal/transfer"
)

// Server is the whole strict server interface, one embedded handler per area.
type Server struct {
	*opsHandler
	*auth.Handler
	*profile.ProfileHandler
	*points.PointsHandler
	*admin.AdminHandler
	*billing.BillingHandler
	*intake.DraftHandler
	*rates.FXHandler
	*ledger.LedgerHandler
	*board.BoardHandler
	*transfer.TransferHandler
	*invest.InvestHandler
	*budget.BudgetHandler
	*intake.NotificationHandler
	*backup.BackupHandler
	*csvio.CSVHandler
	*changes.ChangesHandler
	*cards.CardsHandler
	*forecast.ForecastHandler
	*book.BookHandler
}

var _ apigen.StrictServerInterface = (*Server)(nil)

// Deps are what the server is built from.
type Deps struct {
	Pool  *pgxpool.Pool
	Redis *redis.Client
	// Sessions loads the caller's session and principal into the request
	// context, and saves it after; nil serves every request anonymously.
	Sessions func(http.Handler) http.Handler
	Auth     *auth.Handler
	// TrustedProxies are believed about the client address (X-Forwarded-For).
	TrustedProxies []netip.Prefix
	CORSOrigins    []string // browser origins allowed to call the API (CORS_ALLOWED_ORIGINS)
	Profile        *profile.ProfileHandler
	Points         *points.PointsHandler
	Admin          *admin.AdminHandler
	Billing        *billing.BillingHandler
	Drafts         *intake.DraftHandler // the intake area: parse, receipt OCR
	FX             *rates.FXHandler
	Ledger         *ledger.LedgerHandler
	Board          *board.BoardHandler
	Transfer       *transfer.TransferHandler
	Invest         *invest.InvestHandler
	Budget         *budget.BudgetHandler
	Notifications  *intake.NotificationHandler // the intake area: card notifications
	Backup         *backup.BackupHandler
	CSV            *csvio.CSVHandler
	// Tracing puts every request in a span (package tracing started the
	// provider): named by its operation id, its id is the trace id. Off,
	// no tracing middleware is installed at all.
	Tracing bool
	Changes *changes.ChangesHandler
	Cards   *cards.CardsHandler
	// Forecast answers the cash-flow forecast and the budgets' pace.
	Forecast *forecast.ForecastHandler
	// Heavy admits the operations the contract marks x-heavy; nil admits
	// every request.
	Heavy *heavy.Gate
	// Books serves /api/books and the X-Book-Id selector of the ledger
	// operations; nil ignores the header.
	Books *book.Books
}

// NewHTTPServer is the HTTP server that serves h at addr in production: its
// timeouts bound a client that sends its headers or its body slowly, reads
// its answer slowly, or holds an idle connection. The load test's floor is
// served by it too, as the service is.
func NewHTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
	}
}

// New returns the service's root handler.
func New(deps Deps) (http.Handler, error) {
	contract, err := LoadContract()
	if err != nil {
		return nil, err
	}
	ops := newOpsHandler(deps.Pool, deps.Redis)
	srv := &Server{
		opsHandler:          ops,
		Handler:             deps.Auth,
		ProfileHandler:      deps.Profile,
		PointsHandler:       deps.Points,
		AdminHandler:        deps.Admin,
		BillingHandler:      deps.Billing,
		DraftHandler:        deps.Drafts,
		FXHandler:           deps.FX,
		LedgerHandler:       deps.Ledger,
		BoardHandler:        deps.Board,
		TransferHandler:     deps.Transfer,
		InvestHandler:       deps.Invest,
		BudgetHandler:       deps.Budget,
		NotificationHandler: deps.Notifications,
		BackupHandler:       deps.Backup,
		CSVHandler:          deps.CSV,
		ChangesHandler:      deps.Changes,
		CardsHandler:        deps.Cards,
		ForecastHandler:     deps.Forecast,
	}
	if deps.Books != nil {
		srv.BookHandler = book.NewHandler(deps.Books)
	}

	strict := apigen.NewStrictHandlerWithOptions(srv, nil, apigen.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  badRequest,
		ResponseErrorHandlerFunc: problem.Write,
	})
	apiMux := http.NewServeMux()
	apigen.HandlerWithOptions(streamed{ServerInterface: strict, backup: deps.Backup}, apigen.StdHTTPServerOptions{
		BaseRouter:       apiMux,
		ErrorHandlerFunc: badRequest,
	})
	dispatch, err := newDispatcher(contract, apiMux)
	if err != nil {
		return nil, err
	}
	var api http.Handler = withBook(contract, deps.Books, withHeavy(contract, deps.Heavy,
		withContract(contract, deps.Tracing, withVersions(contract, deps.Pool, dispatch))))
	if deps.Sessions != nil {
		api = deps.Sessions(api)
	}

	m := newMetrics(deps.Pool)
	scrape := m.handler()
	// Two paths are served outside the contract: the metrics for scrapers
	// and the API reference's assets. A switch, not a ServeMux: every
	// request would otherwise be matched twice (here and in apiMux), and a
	// path that is not clean goes to the contract, which answers 404
	// instead of a redirect.
	root := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		get := r.Method == http.MethodGet || r.Method == http.MethodHead
		switch p := r.URL.Path; {
		case get && p == "/metrics":
			scrape.ServeHTTP(w, r)
		case get && strings.HasPrefix(p, docsBase) && isClean(p):
			ops.docs.ServeHTTP(w, r)
		default:
			api.ServeHTTP(w, r)
		}
	})
	h := withRequestInfo(contract, deps.TrustedProxies, withAccessLog(m, withRecover(withCORS(deps.CORSOrigins, root))))
	if deps.Tracing {
		// The span is named after the method until withContract finds the
		// operation (or the request matches none).
		h = otelhttp.NewHandler(h, "request",
			otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method }))
	}
	return h, nil
}

// streamed is the generated router's interface with the operations whose
// bodies are too large to decode whole served by their area's own handler:
// the strict handler decodes a body into its type before the area's method
// runs, which for a 64 MiB restore was the whole document in memory (issue
// 42). The handler still answers with the operation's generated response
// types and problem.Write.
type streamed struct {
	apigen.ServerInterface
	backup *backup.BackupHandler
}

func (s streamed) RestoreBackup(w http.ResponseWriter, r *http.Request, params apigen.RestoreBackupParams) {
	if s.backup == nil {
		s.ServerInterface.RestoreBackup(w, r, params)
		return
	}
	s.backup.ServeRestore(w, r)
}

// isClean tells whether p is already in the form path.Clean gives it (a
// trailing slash allowed): no empty, "." or ".." elements.
func isClean(p string) bool {
	c := path.Clean(p)
	return c == p || c+"/" == p
}

// badRequest answers a request the generated code could not decode (a
// parameter of the wrong form, a body that is not JSON). The contract layer
// catches nearly all of these first; what reaches here is named for a client,
// without the Go types of the decoder's own message.
func badRequest(w http.ResponseWriter, r *http.Request, err error) {
	field, msg := describeDecodeError(err)
	problem.Write(w, r, &problem.Error{
		Status: http.StatusBadRequest,
		Code:   problem.CodeValidationFailed,
		Detail: field + ": " + msg,
		Fields: []problem.FieldError{{Field: field, Message: msg}},
		Err:    err,
	})
}

func describeDecodeError(err error) (field, msg string) {
	var (
		typeErr   *json.UnmarshalTypeError
		syntaxErr *json.SyntaxError
		format    *apigen.InvalidParamFormatError
		required  *apigen.RequiredParamError
		tooMany   *apigen.TooManyValuesForParamError
		unmarshal *apigen.UnmarshalingParamError
		header    *apigen.RequiredHeaderError
		cookie    *apigen.UnescapedCookieParamError
	)
	switch {
	case errors.As(err, &typeErr):
		return "/" + strings.ReplaceAll(typeErr.Field, ".", "/"), "has the wrong JSON type (got " + typeErr.Value + ")"
	case errors.As(err, &syntaxErr):
		return "body", "malformed JSON"
	case errors.As(err, &format):
		return format.ParamName, "has the wrong form"
	case errors.As(err, &required):
		return required.ParamName, "is required"
	case errors.As(err, &tooMany):
		return tooMany.ParamName, "is given more than once"
	case errors.As(err, &unmarshal):
		return unmarshal.ParamName, "has the wrong form"
	case errors.As(err, &header):
		return header.ParamName, "is required"
	case errors.As(err, &cookie):
		return cookie.ParamName, "has the wrong form"
	}
	return "body", "could not be decoded as this operation's request"
}
