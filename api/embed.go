// Package api holds the contract, api/openapi.yaml, from which the server
// interfaces and models in generated/api are made.
package api

import _ "embed"

// OpenAPIYAML is the contract as written, served at /api/openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPIYAML []byte
