// Package server assembles the HTTP service: the contract-driven request path
// (request id, access log, metrics, panic recovery, session, routing, access,
// body limits, validation) in front of the strict handlers of each area.
package server

import (
	"net/http"
	"net/netip"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	apigen "github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/admin"
	"github.com/nestegg/nestegg/internal/auth"
	"github.com/nestegg/nestegg/internal/board"
	"github.com/nestegg/nestegg/internal/clientaddr"
	"github.com/nestegg/nestegg/internal/points"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/profile"
)

// Server is the whole strict server interface, one embedded handler per area.
type Server struct {
	*opsHandler
	*auth.Handler
	*profile.ProfileHandler
	*points.PointsHandler
	*admin.AdminHandler
	*board.BoardHandler
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
	Profile        *profile.ProfileHandler
	Points         *points.PointsHandler
	Admin          *admin.AdminHandler
	Board          *board.BoardHandler
}

// New returns the service's root handler.
func New(deps Deps) (http.Handler, error) {
	contract, err := LoadContract()
	if err != nil {
		return nil, err
	}
	ops := newOpsHandler(deps.Pool, deps.Redis)
	srv := &Server{
		opsHandler:     ops,
		Handler:        deps.Auth,
		ProfileHandler: deps.Profile,
		PointsHandler:  deps.Points,
		AdminHandler:   deps.Admin,
		BoardHandler:   deps.Board,
	}

	strict := apigen.NewStrictHandlerWithOptions(srv, nil, apigen.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  badRequest,
		ResponseErrorHandlerFunc: problem.Write,
	})
	apiMux := http.NewServeMux()
	apigen.HandlerWithOptions(strict, apigen.StdHTTPServerOptions{
		BaseRouter:       apiMux,
		ErrorHandlerFunc: badRequest,
	})
	var api http.Handler = withContract(contract, apiMux)
	if deps.Sessions != nil {
		api = deps.Sessions(api)
	}
	api = clientaddr.Middleware(deps.TrustedProxies)(api)

	m := newMetrics(deps.Pool)
	root := http.NewServeMux()
	root.Handle("GET /metrics", m.handler())
	root.Handle("GET /docs/", ops.docs)
	// Without an exact /docs, ServeMux would redirect it to the asset tree
	// above instead of letting the contract's getDocs answer.
	root.Handle("/docs", api)
	root.Handle("/", api)
	return withRequestInfo(withAccessLog(m, withRecover(root))), nil
}

// badRequest answers a request the generated code could not decode (a
// parameter of the wrong form, a body that is not JSON).
func badRequest(w http.ResponseWriter, r *http.Request, err error) {
	problem.Write(w, r, &problem.Error{
		Status: http.StatusBadRequest,
		Code:   problem.CodeValidationFailed,
		Detail: "the request could not be decoded: " + err.Error(),
		Err:    err,
	})
}
