package invest

// WalletNetsOn is walletNetsOn, for the plan test of its query.
var WalletNetsOn = walletNetsOn
