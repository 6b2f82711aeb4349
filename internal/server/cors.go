package server

import (
	"net/http"
	"slices"
)

// CORS answers of the allowed origins (CORS_ALLOWED_ORIGINS).
const (
	corsAllowMethods  = "GET, HEAD, POST, PUT, PATCH, DELETE"
	corsAllowHeaders  = "Authorization, Content-Type, X-Request-ID"
	corsExposeHeaders = "Retry-After, X-Request-ID"
	corsMaxAge        = "600"
)

// withCORS lets browser clients on the allowed origins call the API with
// credentials (the session cookie or a bearer token). It answers their
// preflight requests itself, before any operation is looked up; other
// origins get no CORS headers, so browsers keep refusing them. With no
// allowed origins it changes nothing.
func withCORS(allowed []string, next http.Handler) http.Handler {
	if len(allowed) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		// The answer depends on Origin: caches must not hand one origin's
		// answer to another.
		h.Add("Vary", "Origin")
		origin := r.Header.Get("Origin")
		if origin == "" || !slices.Contains(allowed, origin) {
			next.ServeHTTP(w, r)
			return
		}
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			infoFrom(r.Context()).Operation = "corsPreflight"
			h.Add("Vary", "Access-Control-Request-Method")
			h.Add("Vary", "Access-Control-Request-Headers")
			h.Set("Access-Control-Allow-Methods", corsAllowMethods)
			h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			h.Set("Access-Control-Max-Age", corsMaxAge)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		next.ServeHTTP(w, r)
	})
}
