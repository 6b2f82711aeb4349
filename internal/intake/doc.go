// Package intake is the intake area: it reads what a member has into ledger
// entries, or drafts of them.
//
//   - NotificationHandler turns card and bank payment notifications into
//     pending entries (CreateEntryFromNotification); it owns the
//     notification_key table, the keys of cancellations seen, which
//     CleanupJob keeps for KeyWindow.
//   - DraftHandler reads drafts out of free text (ParseEntryText: the AI
//     model first, the rule parser as the fallback) and receipt images
//     (RecognizeReceipt: OCR, then the rule parser). Nothing is saved.
//
// The parsing itself is package parser below, which does no I/O and reads
// no clock; this package does the storage, the time and the outside calls.
package intake
