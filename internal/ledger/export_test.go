package ledger

// NextOccurrence lets the external tests check the pure date rule.
var NextOccurrence = nextOccurrence

// HoldWalletDeletions makes every wallet deletion call hold(walletID) after
// deleting the row and before committing; hold returns at once for a wallet
// its test does not watch, as the package's other tests delete wallets too.
func HoldWalletDeletions(hold func(walletID int64)) { walletDeleted.Store(&hold) }
