package billing_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/billing"
	"github.com/nestegg/nestegg/internal/config"
)

const notificationData = `{"version":"1.0","packageName":"com.nestegg.app","eventTimeMillis":"1763254800000",` +
	`"subscriptionNotification":{"version":"1.0","notificationType":4,"purchaseToken":"secret-purchase-token","subscriptionId":"premium_monthly"}}`

func pubSubPush(messageID, data string) api.StoreNotification {
	sub := "projects/nestegg/subscriptions/store-rtdn"
	publish := "2026-11-16T01:00:00.000Z"
	return api.StoreNotification{
		Message:      &api.StoreNotificationMessage{MessageID: &messageID, Data: &data, PublishTime: &publish},
		Subscription: &sub,
	}
}

func TestStoreNotificationsAreAnsweredAndChangeNothing(t *testing.T) {
	t.Parallel()
	env, _ := newEnv(t, testMode())
	m := env.NewMember()
	verify(m, "premium_monthly", "test-rtdn").Want(http.StatusOK)
	before := subscription(t, m.Client)
	store := env.Client() // no session: the store calls it

	data := base64.StdEncoding.EncodeToString([]byte(notificationData))
	store.Do(http.MethodPost, "/api/billing/store/rtdn", pubSubPush("136969346945", data)).Want(http.StatusNoContent)
	for _, body := range []string{
		`{}`,
		`{"message": {}}`,
		`{"message": {"messageId": "1", "data": "not base64!"}, "unknown": [1, 2]}`,
		`{"message": {"messageId": "2", "data": "` + base64.StdEncoding.EncodeToString([]byte("not json")) + `"}}`,
		`{"message": {"messageId": "3", "data": "", "attributes": {"a": "b"}}, "subscription": ""}`,
	} {
		store.Send(http.MethodPost, "/api/billing/store/rtdn", "application/json", []byte(body)).Want(http.StatusNoContent)
	}
	// Signed-in callers get the same answer.
	m.Do(http.MethodPost, "/api/billing/store/rtdn", pubSubPush("4", data)).Want(http.StatusNoContent)

	store.Raw().Send(http.MethodPost, "/api/billing/store/rtdn", "application/json", []byte(`{"message": `)).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	store.Raw().Send(http.MethodPost, "/api/billing/store/rtdn", "application/json", []byte(`{"message": "x"}`)).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	huge := `{"message": {"messageId": "5", "data": "` + strings.Repeat("A", 70_000) + `"}}`
	store.Raw().Send(http.MethodPost, "/api/billing/store/rtdn", "application/json", []byte(huge)).
		WantProblem(http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	store.Raw().Send(http.MethodPost, "/api/billing/store/rtdn", "text/plain", []byte(`{}`)).
		WantProblem(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")

	if after := subscription(t, m.Client); after.Plan != before.Plan || !after.ExpiresAt.Equal(*before.ExpiresAt) || after.AutoRenew != before.AutoRenew {
		t.Fatalf("a notification changed the subscription: %+v -> %+v", before, after)
	}
}

func TestStoreNotificationIsLoggedWithItsMessageID(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	h := billing.NewHandler(billing.Deps{Config: cfg, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	body := pubSubPush("136969346945", base64.StdEncoding.EncodeToString([]byte(notificationData)))
	res, err := h.ReceiveStoreNotification(context.Background(), api.ReceiveStoreNotificationRequestObject{Body: &body})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.(api.ReceiveStoreNotification204Response); !ok {
		t.Fatalf("answer %T", res)
	}
	out := logs.String()
	for _, want := range []string{`"message_id":"136969346945"`, `"notification_type":4`, `"product_id":"premium_monthly"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log %s lacks %s", out, want)
		}
	}
	if strings.Contains(out, "secret-purchase-token") {
		t.Errorf("the purchase token reached the log: %s", out)
	}
}
