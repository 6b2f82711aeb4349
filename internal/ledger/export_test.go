package ledger

// NextOccurrence lets the external tests check the pure date rule.
var NextOccurrence = nextOccurrence
