// Package sdktest drives the service the way client teams do: through SDKs
// generated from api/openapi.yaml. The Go scenario uses generated/apiclient
// (oapi-codegen); the TypeScript scenario in ts/ uses openapi-typescript
// types and the openapi-fetch client, type-checked with tsc --strict and run
// with node against a live test server.
package sdktest
