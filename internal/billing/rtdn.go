package billing

import (
	"context"
	"encoding/base64"
	"encoding/json"

	"github.com/nestegg/nestegg/generated/api"
)

// ReceiveStoreNotification logs a store notification and does nothing else
// (SPEC.md section 6). It answers 204 for every notification that reached
// it, so the store does not retry one the service cannot use.
func (h *BillingHandler) ReceiveStoreNotification(ctx context.Context, req api.ReceiveStoreNotificationRequestObject) (api.ReceiveStoreNotificationResponseObject, error) {
	h.logNotification(ctx, req.Body)
	return api.ReceiveStoreNotification204Response{}, nil
}

// developerNotification is the store's notification inside the Pub/Sub
// message's data: the parts worth a log line. The purchase token is left
// out on purpose: it is what grants a purchase.
type developerNotification struct {
	PackageName              string `json:"packageName"`
	EventTimeMillis          string `json:"eventTimeMillis"`
	SubscriptionNotification *struct {
		NotificationType int    `json:"notificationType"`
		SubscriptionID   string `json:"subscriptionId"`
	} `json:"subscriptionNotification"`
	TestNotification *struct{} `json:"testNotification"`
}

func (h *BillingHandler) logNotification(ctx context.Context, n *api.StoreNotification) {
	attrs := []any{}
	if n != nil && n.Subscription != nil {
		attrs = append(attrs, "subscription", *n.Subscription)
	}
	var msg api.StoreNotificationMessage
	if n != nil && n.Message != nil {
		msg = *n.Message
	}
	attrs = append(attrs, "message_id", deref(msg.MessageID))
	if msg.PublishTime != nil {
		attrs = append(attrs, "publish_time", *msg.PublishTime)
	}
	var dn developerNotification
	if msg.Data != nil {
		raw, err := base64.StdEncoding.DecodeString(*msg.Data)
		if err != nil || json.Unmarshal(raw, &dn) != nil {
			attrs = append(attrs, "data", "unreadable")
		}
	}
	switch {
	case dn.SubscriptionNotification != nil:
		attrs = append(attrs, "kind", "subscription",
			"notification_type", dn.SubscriptionNotification.NotificationType,
			"product_id", dn.SubscriptionNotification.SubscriptionID)
	case dn.TestNotification != nil:
		attrs = append(attrs, "kind", "test")
	}
	if dn.PackageName != "" {
		attrs = append(attrs, "package_name", dn.PackageName)
	}
	h.log.InfoContext(ctx, "store notification received", attrs...)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
