import { describe, expect, it } from "vitest";
import type { AppError } from "../../http/app-error.ts";
import { createSmsSender, type SmsProvider } from "./sms.ts";

const silentLog = { info() {}, error() {} } as never;

function fakeOutbox() {
  const kept: { to: string; subject: string; text: string; delivery: string }[] = [];
  return {
    kept,
    async insertOutboxEmail({ to, subject, text, delivery }: (typeof kept)[number]) {
      kept.push({ to, subject, text, delivery });
    },
  };
}

describe("SMS sender", () => {
  it("keeps texts in the outbox when no provider is configured", async () => {
    const outbox = fakeOutbox();
    const sms = createSmsSender({ outbox, now: () => 0, log: silentLog });
    await sms.send({ to: "+4915100000001", text: "Candor code: 123456" });
    expect(outbox.kept).toEqual([
      { to: "+4915100000001", subject: "SMS", text: "Candor code: 123456", delivery: "outbox" },
    ]);
  });

  it("hands texts to the provider's adapter, and says so when it fails", async () => {
    const outbox = fakeOutbox();
    const delivered: string[] = [];
    let failing = false;
    const provider: SmsProvider = {
      async deliver({ to, text }) {
        if (failing) throw new Error("gateway down");
        delivered.push(`${to}: ${text}`);
      },
    };
    const sms = createSmsSender({ outbox, now: () => 0, log: silentLog, provider });
    await sms.send({ to: "+4915100000002", text: "hello" });
    expect(delivered).toEqual(["+4915100000002: hello"]);
    expect(outbox.kept[0]?.delivery).toBe("sms");
    failing = true;
    const error = await sms.send({ to: "+4915100000002", text: "again" }).catch((e) => e);
    expect((error as AppError).code).toBe("mail_unavailable");
    // Kept in the outbox all the same, for the operator to act on.
    expect(outbox.kept).toHaveLength(2);
  });
});
