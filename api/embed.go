// Package api holds the contract, api/openapi.yaml, from which the server
// interfaces and models in generated/api are made.
package api

import _ "embed"

// OpenAPIYAML is the contract as written, served at /api/openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPIYAML []byte

// OAPIClientYAML is the oapi-codegen configuration of the Go client the
// contract names (api/oapi-client.yaml), served at /docs/oapi-client.yaml so
// that a client team can generate the same SDK from a running server.
//
//go:embed oapi-client.yaml
var OAPIClientYAML []byte
