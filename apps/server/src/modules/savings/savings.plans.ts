import type { DefineSavingsPlanBody } from "@candor/contract";

/**
 * Plans defined at start-up when the kernel does not have them. They promise nothing by
 * themselves: until the operator funds the yield account of a mode, a plan shows "sold out"
 * there. (Demo yield is demo money, topped up by the first demo subscription that needs it.)
 */
export const defaultSavingsPlans: readonly DefineSavingsPlanBody[] = [
  {
    planId: "usdt-flex-7",
    kind: "savings",
    name: "USDT 7 days",
    asset: "USDT",
    cycleDays: 7,
    dailyRatePercent: "0.02",
    amountMin: "10",
    amountMax: "50000",
    amountStep: "1",
    capacity: "1000000",
    earlyRedemption: "forfeit_unpaid",
    earlyPenaltyBps: 0,
    open: true,
  },
  {
    planId: "usdt-30",
    kind: "savings",
    name: "USDT 30 days",
    asset: "USDT",
    cycleDays: 30,
    dailyRatePercent: "0.03",
    amountMin: "100",
    amountMax: "100000",
    amountStep: "1",
    capacity: "2000000",
    earlyRedemption: "forfeit_unpaid",
    earlyPenaltyBps: 50,
    open: true,
  },
  {
    planId: "miner-s19",
    kind: "mining",
    // An example: the operator replaces it with the hardware it actually runs.
    name: "Example mining product",
    hardware: {
      manufacturer: "Example",
      hashrate: "100 TH/s",
      wallPower: "3000 W",
      boxSize: "195 × 290 × 430 mm",
      pool: "Example pool",
    },
    asset: "USDT",
    cycleDays: 90,
    dailyRatePercent: "0.05",
    amountMin: "500",
    amountMax: "50000",
    amountStep: "500",
    capacity: "500000",
    earlyRedemption: "none",
    earlyPenaltyBps: 0,
    open: true,
  },
];
