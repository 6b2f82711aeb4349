// Package sdktest drives the service the way client teams do: through SDKs
// generated from api/openapi.yaml. The Go scenario uses generated/apiclient
// (oapi-codegen); the TypeScript scenario in ts/ uses openapi-typescript
// types and the openapi-fetch client, type-checked with tsc --strict and run
// with node against a live test server behind Prism's validating proxy
// (prism proxy --errors), which fails the scenario on any request or answer
// that breaks the contract. Both scenarios cover what clients rely on: ETags
// (304, 412), Idempotency-Key replay, paging the typed changes feed, backup
// and restore, and a multipart image upload.
package sdktest
