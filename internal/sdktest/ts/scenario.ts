// A mobile team's first scenario, written against types generated from
// api/openapi.yaml (openapi-typescript) and the openapi-fetch client. The Go
// test internal/sdktest/TestTypeScriptMemberScenario type-checks it with
// `tsc --strict` and runs it against a live server: NESTEGG_URL is the
// server (behind Prism's validating proxy), NESTEGG_DIRECT_URL the server
// itself (for the image upload only: Prism's proxy does not pass binary bodies
// through unchanged), NESTEGG_TODAY (yyyy-mm-dd) the server's today. Any failed step
// throws, and node exits non-zero.
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./gen/api.js";

type Schemas = components["schemas"];

const base = process.env.NESTEGG_URL;
const direct = process.env.NESTEGG_DIRECT_URL ?? base;
const today = process.env.NESTEGG_TODAY;
if (!base || !today || !/^\d{4}-\d{2}-\d{2}$/.test(today)) {
  throw new Error("NESTEGG_URL and NESTEGG_TODAY (yyyy-mm-dd) must be set");
}
const day: string = today;
const year = Number(day.slice(0, 4));
const month = Number(day.slice(5, 7));

let step = "start";
function check(cond: boolean, what: string, detail?: unknown): asserts cond {
  if (!cond) {
    throw new Error(`step "${step}": ${what}${detail === undefined ? "" : ": " + JSON.stringify(detail)}`);
  }
}

// One client per member: a middleware adds the member's bearer token.
function client(token?: string, baseUrl = base) {
  const c = createClient<paths>({ baseUrl });
  if (token) {
    const auth: Middleware = {
      onRequest({ request }) {
        request.headers.set("Authorization", `Bearer ${token}`);
        return request;
      },
    };
    c.use(auth);
  }
  return c;
}

async function signUp(email: string, name: string): Promise<string> {
  const { data, response, error } = await client().POST("/api/auth/signup", {
    body: { email, password: "correct horse battery", name },
  });
  check(response.status === 201 && data !== undefined, `sign-up answered ${response.status}`, error);
  check(data.user.name === name, "sign-up names the member", data.user);
  return data.token;
}

async function main(): Promise<void> {
  step = "sign up";
  const token = await signUp("ts-member@nestegg.test", "TS Member");
  const api = client(token);

  step = "import default categories";
  const cats = await api.POST("/api/account/categories/import");
  check(cats.response.status === 200 && cats.data !== undefined, `import answered ${cats.response.status}`, cats.error);
  const expenseCat = cats.data.items.find((c: Schemas["Category"]) => c.type === "expense");
  const incomeCat = cats.data.items.find((c: Schemas["Category"]) => c.type === "income");
  check(expenseCat !== undefined && incomeCat !== undefined, "default tree has income and expense categories", cats.data);

  step = "cash and card wallets";
  const cash = await api.POST("/api/account/wallets", { body: { name: "Cash", type: "CASH", openingBalance: 100000 } });
  check(cash.response.status === 201 && cash.data !== undefined, `cash wallet answered ${cash.response.status}`, cash.error);
  check(cash.data.balance === 100000, "cash wallet starts at its opening balance", cash.data);
  const card = await api.POST("/api/account/wallets", { body: { name: "Card", type: "CARD" } });
  check(card.response.status === 201 && card.data !== undefined, `card wallet answered ${card.response.status}`, card.error);

  step = "income and expense entries";
  const salary = await api.POST("/api/account/entries", {
    body: { date: day, type: "income", amount: 3000000, walletId: cash.data.id, categoryId: incomeCat.id, memo: "salary" },
  });
  check(salary.response.status === 201 && salary.data !== undefined, `income answered ${salary.response.status}`, salary.error);
  check(salary.data.type === "income", "income entry reads back lower-case", salary.data);
  const lunch = await api.POST("/api/account/entries", {
    body: { date: day, type: "expense", amount: 12000, walletId: card.data.id, categoryId: expenseCat.id, memo: "lunch" },
  });
  check(lunch.response.status === 201 && lunch.data !== undefined, `expense answered ${lunch.response.status}`, lunch.error);
  check(lunch.data.type === "expense", "expense entry reads back lower-case", lunch.data);

  step = "this month's list";
  const list = await api.GET("/api/account/entries", { params: { query: { year, month } } });
  check(list.response.status === 200 && list.data !== undefined, `list answered ${list.response.status}`, list.error);
  check(list.data.total === 2 && list.data.items.length === 2, "two entries this month", list.data);
  check(list.data.summary.income === 3000000 && list.data.summary.expense === 12000, "month summary", list.data.summary);

  step = "budget before PREMIUM";
  const gated = await api.POST("/api/account/budgets", { body: { categoryId: expenseCat.id, year, month, amount: 300000 } });
  check(gated.response.status === 403 && gated.error !== undefined, `budget as FREE answered ${gated.response.status}`, gated.data);

  step = "test-mode purchase";
  const bought = await api.POST("/api/billing/store/verify", { body: { productId: "premium_monthly", purchaseToken: "test-ts-1" } });
  check(bought.response.status === 200 && bought.data !== undefined, `purchase answered ${bought.response.status}`, bought.error);
  check(bought.data.plan === "PREMIUM", "purchase makes the member PREMIUM", bought.data);

  step = "budget";
  const budget = await api.POST("/api/account/budgets", { body: { categoryId: expenseCat.id, year, month, amount: 300000 } });
  check(budget.response.status === 201 && budget.data !== undefined, `budget answered ${budget.response.status}`, budget.error);

  step = "budget status";
  const status = await api.GET("/api/account/budgets/status", { params: { query: { year, month } } });
  check(status.response.status === 200 && status.data !== undefined, `status answered ${status.response.status}`, status.error);
  check(status.data.budget === 300000 && status.data.spent === 12000 && status.data.remaining === 288000, "budget status totals", status.data);

  step = "statistics";
  const stats = await api.GET("/api/account/stats/monthly", { params: { query: { year, month } } });
  check(stats.response.status === 200 && stats.data !== undefined, `stats answered ${stats.response.status}`, stats.error);
  check(stats.data.income === 3000000 && stats.data.expense === 12000 && stats.data.net === 2988000, "monthly statistics", stats.data);

  step = "transfer";
  const transfer = await api.POST("/api/account/transfers", {
    body: { date: day, amount: 12000, fromWalletId: cash.data.id, toWalletId: card.data.id, memo: "pay the card" },
  });
  check(transfer.response.status === 201 && transfer.data !== undefined, `transfer answered ${transfer.response.status}`, transfer.error);
  const wallets = await api.GET("/api/account/wallets");
  check(wallets.response.status === 200 && wallets.data !== undefined, `wallets answered ${wallets.response.status}`, wallets.error);
  const balances = new Map(wallets.data.items.map((w: Schemas["Wallet"]) => [w.id, w.balance] as const));
  check(balances.get(cash.data.id) === 100000 + 3000000 - 12000 && balances.get(card.data.id) === 0, "balances after the transfer", wallets.data);

  step = "net worth";
  const worth = await api.GET("/api/account/networth/trend", {});
  check(worth.response.status === 200 && worth.data !== undefined, `net worth answered ${worth.response.status}`, worth.error);
  const last = worth.data.points[worth.data.points.length - 1];
  check(last !== undefined && last.assets - last.liabilities === 100000 + 3000000 - 12000, "net worth today", worth.data);

  step = "ETags";
  // A GET's ETag; If-None-Match of it answers 304; an edit with If-Match of
  // the version held works once, and then that version is stale: 412.
  const read = await api.GET("/api/account/entries/{id}", { params: { path: { id: salary.data.id } } });
  const etag = read.response.headers.get("ETag");
  check(read.response.status === 200 && read.data !== undefined && etag !== null && etag !== "", `get the salary answered ${read.response.status}`, read.error);
  const same = await api.GET("/api/account/entries/{id}", {
    params: { path: { id: salary.data.id }, header: { "If-None-Match": etag } },
  });
  check(same.response.status === 304 && same.data === undefined, `If-None-Match of the ETag held answered ${same.response.status}`, same.error);
  const edit: Schemas["EntryRequest"] = {
    date: day, type: "income", amount: 3000000, walletId: cash.data.id, categoryId: incomeCat.id, memo: "salary (November)",
  };
  const edited = await api.PUT("/api/account/entries/{id}", {
    params: { path: { id: salary.data.id }, header: { "If-Match": etag } },
    body: edit,
  });
  const newTag = edited.response.headers.get("ETag");
  check(edited.response.status === 200 && edited.data !== undefined && newTag !== null && newTag !== etag,
    `edit with If-Match of the version held answered ${edited.response.status}`, edited.error);
  const stale = await api.PUT("/api/account/entries/{id}", {
    params: { path: { id: salary.data.id }, header: { "If-Match": etag } },
    body: { ...edit, memo: "salary (stale)" },
  });
  check(stale.response.status === 412 && stale.error !== undefined, `edit with a stale If-Match answered ${stale.response.status}`, stale.data);
  check(stale.error.code === "PRECONDITION_FAILED" && stale.response.headers.get("ETag") === newTag, "412 names the current ETag", stale.error);
  const changed = await api.GET("/api/account/entries/{id}", {
    params: { path: { id: salary.data.id }, header: { "If-None-Match": etag } },
  });
  check(changed.response.status === 200 && changed.data?.memo === "salary (November)", `If-None-Match of an old ETag answered ${changed.response.status}`, changed.data);

  step = "Idempotency-Key";
  // A retry with the same key and body answers the first answer again,
  // marked Idempotent-Replayed, and creates nothing.
  const coffee: Schemas["EntryRequest"] = {
    date: day, type: "expense", amount: 4500, walletId: cash.data.id, categoryId: expenseCat.id, memo: "coffee",
  };
  const key = "ts-coffee-6f5e4a57-9f0e";
  const keyed = await api.POST("/api/account/entries", { params: { header: { "Idempotency-Key": key } }, body: coffee });
  check(keyed.response.status === 201 && keyed.data !== undefined && keyed.response.headers.get("Idempotent-Replayed") === null,
    `a keyed create answered ${keyed.response.status}`, keyed.error);
  const retry = await api.POST("/api/account/entries", { params: { header: { "Idempotency-Key": key } }, body: coffee });
  check(retry.response.status === 201 && retry.data?.id === keyed.data.id, `the retry answered ${retry.response.status}`, retry.data ?? retry.error);
  check(retry.response.headers.get("Idempotent-Replayed") === "true", "the retry is marked Idempotent-Replayed", [...retry.response.headers]);
  check(retry.response.headers.get("ETag") === keyed.response.headers.get("ETag"), "the replay carries the first ETag", [...retry.response.headers]);
  const coffees = await api.GET("/api/account/entries", { params: { query: { year, month, q: "coffee" } } });
  check(coffees.response.status === 200 && coffees.data?.total === 1, "one coffee after the retry", coffees.data ?? coffees.error);

  // A burst of one keyed create, as a client retrying on a flaky network:
  // one original; every other answer is its replay or, while the first still
  // runs, 409 IDEMPOTENCY_KEY_IN_FLIGHT with Retry-After; one entry is made.
  const tea: Schemas["EntryRequest"] = { ...coffee, memo: "tea" };
  const burstKey = "ts-tea-0d5d0a3e9f11";
  const burst = await Promise.all(Array.from({ length: 20 }, () =>
    api.POST("/api/account/entries", { params: { header: { "Idempotency-Key": burstKey } }, body: tea })));
  let originals = 0, replays = 0, inFlight = 0;
  for (const r of burst) {
    if (r.response.status === 201) {
      if (r.response.headers.get("Idempotent-Replayed") === "true") replays++; else originals++;
    } else if (r.response.status === 409 && r.error?.code === "IDEMPOTENCY_KEY_IN_FLIGHT" && r.response.headers.get("Retry-After") !== null) {
      inFlight++;
    } else {
      check(false, `a burst create answered ${r.response.status}`, r.error);
    }
  }
  check(originals === 1, `a burst of one keyed create: ${originals} originals, ${replays} replays, ${inFlight} in flight`);
  const teas = await api.GET("/api/account/entries", { params: { query: { year, month, q: "tea" } } });
  check(teas.response.status === 200 && teas.data?.total === 1, "one tea after the burst", teas.data ?? teas.error);

  step = "an ignored notification";
  // An advertisement is ignored: the answer has no entry (absent, not null),
  // which Prism checks against the contract as it passes.
  const ad = await api.POST("/api/account/entries/notification", {
    body: { text: "(광고)[신한카드] 11월 혜택 안내! 스타벅스 30% 할인 이벤트 무료수신거부 080-000-0000" },
  });
  check(ad.response.status === 200 && ad.data?.outcome === "IGNORED" && ad.data.entry === undefined && !("entry" in ad.data),
    "an advertisement is ignored without an entry", ad.data ?? ad.error);

  step = "the changes feed";
  // An offline client's sync: page with `next` until `hasMore` is false,
  // switch on `kind`, and `record` is that kind's type (no cast); a kind this
  // client does not know is skipped; a DELETE has no record.
  async function sync(since?: string) {
    const ops = new Map<string, Schemas["ChangeOp"]>();
    let wallet: Schemas["Wallet"] | undefined;
    let entry: Schemas["Entry"] | undefined;
    let cursor = since;
    for (let pages = 1; ; pages++) {
      const feed = await api.GET("/api/account/changes", { params: { query: { since: cursor, limit: 3 } } });
      check(feed.response.status === 200 && feed.data !== undefined, `changes answered ${feed.response.status}`, feed.error);
      check(pages <= 100 && feed.data.changes.length <= 3, "pages of at most 3, and an end", feed.data);
      for (const change of feed.data.changes) {
        switch (change.kind) {
          case "WALLET":
            ops.set(`wallet ${change.id}`, change.op);
            if (change.record?.id === cash.data?.id) wallet = change.record;
            break;
          case "ENTRY":
            ops.set(`entry ${change.id}`, change.op);
            check((change.op === "DELETE") === (change.record === undefined), "a DELETE, and only a DELETE, has no record", change);
            if (change.record?.id === salary.data?.id) entry = change.record;
            break;
          case "TRANSFER":
            ops.set(`transfer ${change.id}`, change.op);
            break;
          default:
            break; // other kinds, and kinds added later
        }
      }
      cursor = feed.data.next;
      if (!feed.data.hasMore) return { ops, wallet, entry, next: feed.data.next };
    }
  }
  const first = await sync();
  check(first.wallet?.type === "CASH" && first.wallet.balance === 100000 + 3000000 - 12000 - 4500 - 4500, "the cash wallet in the feed", first.wallet);
  check(first.entry?.type === "income" && first.entry.amount === 3000000 && first.entry.memo === "salary (November)", "the salary in the feed", first.entry);
  check(first.ops.get(`transfer ${transfer.data.id}`) === "UPSERT", "the transfer in the feed", [...first.ops]);
  check(first.ops.get(`entry ${keyed.data.id}`) === "UPSERT", "the coffee in the feed", [...first.ops]);
  const gone = await api.DELETE("/api/account/entries/{id}", { params: { path: { id: lunch.data.id } } });
  check(gone.response.status === 204, `deleting the lunch answered ${gone.response.status}`, gone.error);
  const later = await sync(first.next);
  check(later.ops.get(`entry ${lunch.data.id}`) === "DELETE", "a tombstone of the lunch", [...later.ops]);

  step = "backup and restore";
  // PREMIUM (bought above): the document a backup answers restores the same ledger.
  const backup = await api.GET("/api/account/backup");
  check(backup.response.status === 200 && backup.data !== undefined, `backup answered ${backup.response.status}`, backup.error);
  check(backup.data.wallets.length === 2 && backup.data.transfers.length === 1, "the backup holds the wallets and the transfer", backup.data);
  const restored = await api.POST("/api/account/restore", { body: backup.data });
  check(restored.response.status === 200 && restored.data !== undefined, `restore answered ${restored.response.status}`, restored.error);
  check(restored.data.wallets === 2 && restored.data.transfers === 1 && restored.data.entries >= backup.data.entries.length, "restore counts", restored.data);
  const after = await api.GET("/api/account/wallets");
  check(after.response.status === 200 && after.data !== undefined, `wallets after the restore answered ${after.response.status}`, after.error);
  const byName = new Map(after.data.items.map((w: Schemas["Wallet"]) => [w.name, w.balance] as const));
  check(byName.size === 2 && byName.get("Cash") === 100000 + 3000000 - 12000 - 4500 - 4500 && byName.get("Card") === 12000, "balances after the restore", after.data);

  step = "the next card bill";
  // The restored card gets its issuer's cycle (it closes on the 28th, is
  // paid on the 14th from the cash wallet) and an expense; its next bill is
  // the open statement, which holds it.
  const restoredCash = after.data.items.find((w: Schemas["Wallet"]) => w.name === "Cash");
  const restoredCard = after.data.items.find((w: Schemas["Wallet"]) => w.name === "Card");
  check(restoredCash !== undefined && restoredCard !== undefined, "the restored wallets by name", after.data);
  const cycled = await api.PUT("/api/account/wallets/{id}", {
    params: { path: { id: restoredCard.id } },
    body: { name: "Card", type: "CARD", statementDay: 28, paymentDay: 14, paymentWalletId: restoredCash.id },
  });
  check(cycled.response.status === 200 && cycled.data !== undefined, `card cycle answered ${cycled.response.status}`, cycled.error);
  check(cycled.data.statementDay === 28 && cycled.data.paymentWalletId === restoredCash.id, "the card's cycle reads back", cycled.data);
  const dinner = await api.POST("/api/account/entries", {
    body: { date: day, type: "expense", amount: 25000, walletId: restoredCard.id, memo: "dinner" },
  });
  check(dinner.response.status === 201, `a card expense answered ${dinner.response.status}`, dinner.error);
  const next = await api.GET("/api/account/card-bills/next");
  check(next.response.status === 200 && next.data !== undefined, `next bills answered ${next.response.status}`, next.error);
  const bill = next.data.cards[0];
  check(next.data.cards.length === 1 && bill !== undefined && bill.walletId === restoredCard.id, "one card's next bill", next.data);
  check(next.data.total === bill.total && bill.total >= 25000 && bill.dueDate > bill.closingDate && bill.closingDate >= day, "the next bill is the open statement, due after it closes", next.data);

  step = "a forecast";
  // 92 days from today: the bill leaves the cash wallet on its due date
  // (CARD_BILL), the card's own balance is no money held, and the last
  // day's balance is today's cash plus every movement of money held.
  const forecast = await api.GET("/api/account/forecast", { params: { query: { days: 92 } } });
  check(forecast.response.status === 200 && forecast.data !== undefined, `forecast answered ${forecast.response.status}`, forecast.error);
  const f = forecast.data;
  const firstDay = f.days[0];
  const lastDay = f.days[f.days.length - 1];
  check(firstDay !== undefined && lastDay !== undefined, "the forecast has days", f);
  check(f.from === day && f.days.length === 92 && firstDay.date === day && f.to === lastDay.date, "a 92-day window from today", f);
  const moves = f.days.flatMap((d: Schemas["ForecastDay"]) => d.movements);
  const billMove = moves.find((m: Schemas["ForecastMovement"]) => m.source === "CARD_BILL");
  check(billMove !== undefined && billMove.walletId === restoredCash.id && billMove.amount === -bill.total &&
    billMove.date === bill.dueDate && billMove.sourceId === restoredCard.id, "the bill leaves the paying wallet on its due date", moves);
  const held = moves.filter((m: Schemas["ForecastMovement"]) => m.walletId !== restoredCard.id)
    .reduce((sum: number, m: Schemas["ForecastMovement"]) => sum + m.amount, 0);
  check(lastDay.balance === restoredCash.balance + held, "the last day is today's money held plus every movement", f);
  check(f.lowest.balance <= firstDay.balance && f.belowZero.length === 0, "the lowest point, nothing below zero", f);

  step = "an image";
  // Multipart, the field "file": a 1x1 PNG. Sent to the server itself, not
  // through Prism: its proxy holds a body as text and forwards the PNG's
  // bytes changed (the server then answers 415; stoplightio/prism#2349,
  // #1321), so this one request is checked by the server and the types only.
  const png = Uint8Array.from(Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGPQ6w4HAAH7ARF0JhTpAAAAAElFTkSuQmCC", "base64"));
  const image = await client(token, direct).POST("/api/board/images", {
    body: { file: "pixel.png" },
    bodySerializer() {
      const form = new FormData();
      form.append("file", new Blob([png], { type: "image/png" }), "pixel.png");
      return form;
    },
  });
  check(image.response.status === 201 && image.data !== undefined, `upload answered ${image.response.status}`, image.error);
  check(image.data.url.startsWith("http"), "an absolute image address", image.data);

  step = "a post";
  const post = await api.POST("/api/board/posts", {
    body: { category: "community", title: "Hello from the TypeScript app", body: "First budget done." },
  });
  check(post.response.status === 201 && post.data !== undefined, `post answered ${post.response.status}`, post.error);
  check(post.data.myVote === null && post.data.upCount === 0, "a new post has no votes", post.data);

  step = "a vote";
  const friend = client(await signUp("ts-friend@nestegg.test", "TS Friend"));
  const vote = await friend.POST("/api/board/posts/{id}/vote", {
    params: { path: { id: post.data.id } },
    body: { direction: "UP" },
  });
  check(vote.response.status === 200 && vote.data !== undefined, `vote answered ${vote.response.status}`, vote.error);
  check(vote.data.up === 1 && vote.data.myVote === "UP", "the vote counts", vote.data);

  step = "points";
  const points = await api.GET("/api/auth/points");
  check(points.response.status === 200 && points.data !== undefined, `points answered ${points.response.status}`, points.error);
  check(points.data.points === 15, "10 for the post and 5 for its up-vote", points.data);

  step = "logout";
  const out = await api.POST("/api/auth/logout");
  check(out.response.status === 204, `logout answered ${out.response.status}`, out.error);

  step = "dead token";
  const dead = await api.GET("/api/auth/session");
  check(dead.response.status === 401 && dead.error !== undefined, `session after logout answered ${dead.response.status}`, dead.data);
  check(dead.error.code === "UNAUTHENTICATED", "the problem code", dead.error);
}

main().then(
  () => console.log("typescript member scenario: ok"),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
