import { isMarketOpen, instruments } from "@candor/market";
import { afterAll, expect, it } from "vitest";
import type { Unstamped } from "./engine/engine.ts";
import type { CandorCommand } from "./engine/kernel-port.ts";
import { describeEachDatabase } from "./testing/databases.ts";
import { routeTest } from "./testing/route-test.ts";

// An API node (`ROLE=api`, buildApp's `apiNode`) starts none of the background work that
// submits commands or writes read models on its own: here the stock session sync (it journals
// a session the kernel has wrong) and the timed proof-of-liabilities publication (it writes a
// root), both on 20 ms timers. The same app as the leader builds it does both (the control).
const stock = instruments.find((i) => i.products.includes("stock"))!;

describeEachDatabase("API node: no background timers", (database) => {
  for (const apiNode of [true, false]) {
    const kit = routeTest(apiNode ? "10.31.0" : "10.31.1");
    afterAll(() => kit.close());

    it(`${apiNode ? "an API node submits nothing and publishes no proof on its own" : "the leader syncs stock sessions and publishes proofs on its timers"}`, async () => {
      const { engine } = await kit.startEngine(database(), Date.now);
      const submitted: string[] = [];
      const submit = engine.submit.bind(engine);
      engine.submit = (command: Unstamped<CandorCommand>) => {
        submitted.push(command.id);
        return submit(command);
      };
      await kit.startApp(database(), {
        apiNode,
        proofIntervalMs: 20,
        stocks: { sessionSyncMs: 20 },
      });
      await kit.app.ready();
      // What the modules' set-up submitted at start (one-off, on every node) is not counted.
      submitted.length = 0;
      // The kernel's session of a stock made wrong: the sync puts the calendar's back.
      const open = isMarketOpen(stock, Date.now());
      await kit.submit({
        type: "stock_session",
        id: `wrong-session-${apiNode}`,
        instrumentId: stock.id,
        open: !open,
        sessionId: null,
      });
      const history = async () =>
        (await kit.call("GET", "/api/v1/proof/liabilities/history")).json().data.items.length;
      const syncs = () => submitted.filter((id) => id.startsWith(`stock-session:${stock.id}:`));
      if (apiNode) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(syncs()).toEqual([]);
        expect(await history()).toBe(0);
      } else {
        const deadline = Date.now() + 10_000;
        while ((syncs().length === 0 || (await history()) === 0) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(syncs().length).toBeGreaterThan(0);
        expect(await history()).toBeGreaterThan(0);
      }
    });
  }
});
