import type { AssetClass } from "./asset-class.ts";
import type { CalendarId } from "./calendars.ts";
import { unitsOf } from "./units.ts";

/** The products a user can trade on an instrument. */
export const products = ["spot", "stock", "perpetual", "seconds"] as const;
export type Product = (typeof products)[number];

/** An asset as an instrument names it: its symbol and how many decimals its amounts carry. */
export interface AssetRef {
  symbol: string;
  /** Decimals of the asset's smallest unit (USDT 6, BTC 8, USD 2). */
  decimals: number;
}

/** How the seeded simulator moves an instrument's price. */
export interface SimulationSpec {
  /** A realistic starting price, as a decimal string in the quote asset. */
  startPrice: string;
  /** Annualised volatility in basis points (6000 = 60 % a year). */
  volatilityBpsYearly: number;
  /** Expected number of jumps a day (crypto), each up to `jumpBpsMax` either way. */
  jumpsPerDay: number;
  jumpBpsMax: number;
  /** Pull back toward the starting price, in parts per million of the gap per hour (FX). */
  meanReversionPpmHourly: number;
  /** Typical traded quantity per day, as a decimal string in the base asset. */
  dailyVolume: string;
}

/** A tradable instrument. Prices are `bigint` counts of 10^-priceScale quote units. */
export interface Instrument {
  /** Stable id used in URLs and streams: "BTCUSDT", "AAPL", "0700.HK", "EURUSD". */
  id: string;
  /** How people write it: "BTC/USDT", "AAPL", "0700", "EUR/USD". */
  symbol: string;
  /** Display names in English and Traditional Chinese (other locales show the English one). */
  names: { en: string; "zh-Hant": string };
  assetClass: AssetClass;
  /** Market or exchange name shown with the instrument. */
  venue: string;
  base: AssetRef;
  quote: AssetRef;
  /** Decimals of a price: prices are integer counts of 10^-priceScale quote units. */
  priceScale: number;
  /** Smallest price step, in 10^-priceScale units. */
  tickSize: bigint;
  /** Decimals of a quantity: quantities are integer counts of 10^-quantityScale base units. */
  quantityScale: number;
  /** Smallest quantity step (a board lot for stocks), in 10^-quantityScale units. */
  lotSize: bigint;
  calendarId: CalendarId;
  products: readonly Product[];
  /** Stamp duty charged on each side of a stock trade, in basis points (Hong Kong: 10). */
  stampDutyBps: number;
  simulation: SimulationSpec;
  /** The stream name of this instrument on Binance, where it is listed there. */
  binanceSymbol?: string;
}

const usdt: AssetRef = { symbol: "USDT", decimals: 6 };
const usd: AssetRef = { symbol: "USD", decimals: 2 };
const hkd: AssetRef = { symbol: "HKD", decimals: 2 };

type Draft = Omit<Instrument, "simulation" | "stampDutyBps" | "tickSize" | "lotSize"> & {
  tickSize: string;
  lotSize: string;
  stampDutyBps?: number;
  simulation: Partial<SimulationSpec> & Pick<SimulationSpec, "startPrice" | "dailyVolume">;
};

const classDefaults: Record<AssetClass, Omit<SimulationSpec, "startPrice" | "dailyVolume">> = {
  crypto: { volatilityBpsYearly: 6000, jumpsPerDay: 2, jumpBpsMax: 150, meanReversionPpmHourly: 0 },
  stock: { volatilityBpsYearly: 3000, jumpsPerDay: 0, jumpBpsMax: 0, meanReversionPpmHourly: 0 },
  forex: { volatilityBpsYearly: 800, jumpsPerDay: 0, jumpBpsMax: 0, meanReversionPpmHourly: 2000 },
  metal: { volatilityBpsYearly: 1800, jumpsPerDay: 0, jumpBpsMax: 0, meanReversionPpmHourly: 0 },
  commodity: {
    volatilityBpsYearly: 3500,
    jumpsPerDay: 0,
    jumpBpsMax: 0,
    meanReversionPpmHourly: 500,
  },
};

function crypto(
  base: string,
  en: string,
  zh: string,
  decimals: number,
  priceScale: number,
  quantityScale: number,
  startPrice: string,
  dailyVolume: string,
): Draft {
  return {
    id: `${base}USDT`,
    symbol: `${base}/USDT`,
    names: { en, "zh-Hant": zh },
    assetClass: "crypto",
    venue: "Candor",
    base: { symbol: base, decimals },
    quote: usdt,
    priceScale,
    tickSize: "1",
    quantityScale,
    lotSize: "1",
    calendarId: "crypto",
    products: ["spot", "perpetual", "seconds"],
    simulation: { startPrice, dailyVolume },
    binanceSymbol: `${base.toLowerCase()}usdt`,
  };
}

function usStock(id: string, en: string, zh: string, startPrice: string, vol: number): Draft {
  return {
    id,
    symbol: id,
    names: { en, "zh-Hant": zh },
    assetClass: "stock",
    venue: "NASDAQ/NYSE",
    base: { symbol: id, decimals: 0 },
    quote: usd,
    priceScale: 2,
    tickSize: "1",
    quantityScale: 0,
    lotSize: "1",
    calendarId: "nyse",
    products: ["stock"],
    simulation: { startPrice, dailyVolume: "2000000", volatilityBpsYearly: vol },
  };
}

function hkStock(
  code: string,
  en: string,
  zh: string,
  startPrice: string,
  tickSize: string,
  boardLot: string,
): Draft {
  return {
    id: `${code}.HK`,
    symbol: code,
    names: { en, "zh-Hant": zh },
    assetClass: "stock",
    venue: "HKEX",
    base: { symbol: `${code}.HK`, decimals: 0 },
    quote: hkd,
    priceScale: 3,
    // HKEX ticks depend on the price band; each instrument carries the tick of its band.
    tickSize,
    quantityScale: 0,
    lotSize: boardLot,
    calendarId: "hkex",
    products: ["stock"],
    stampDutyBps: 10,
    simulation: { startPrice, dailyVolume: "8000000", volatilityBpsYearly: 3500 },
  };
}

function forex(base: string, quote: string, zh: string, startPrice: string, scale: number): Draft {
  return {
    id: `${base}${quote}`,
    symbol: `${base}/${quote}`,
    names: { en: `${base}/${quote}`, "zh-Hant": zh },
    assetClass: "forex",
    venue: "OTC",
    base: { symbol: base, decimals: 2 },
    quote: { symbol: quote, decimals: quote === "JPY" ? 0 : 2 },
    priceScale: scale,
    tickSize: "1",
    quantityScale: 2,
    lotSize: "100000",
    calendarId: "forex",
    products: ["perpetual", "seconds"],
    simulation: { startPrice, dailyVolume: "500000000" },
  };
}

function metal(
  code: string,
  en: string,
  zh: string,
  startPrice: string,
  volatilityBpsYearly: number,
): Draft {
  return {
    id: `${code}USD`,
    symbol: `${code}/USD`,
    names: { en, "zh-Hant": zh },
    assetClass: "metal",
    venue: "OTC",
    base: { symbol: code, decimals: 3 },
    quote: usd,
    priceScale: code === "XAG" ? 3 : 2,
    tickSize: "1",
    quantityScale: 3,
    lotSize: "1",
    calendarId: "metals",
    products: ["perpetual", "seconds"],
    simulation: { startPrice, dailyVolume: "200000", volatilityBpsYearly },
  };
}

function commodity(
  id: string,
  en: string,
  zh: string,
  unit: string,
  startPrice: string,
  priceScale: number,
  calendarId: CalendarId,
  volatilityBpsYearly: number,
): Draft {
  return {
    id,
    symbol: id,
    names: { en, "zh-Hant": zh },
    assetClass: "commodity",
    venue: calendarId === "cbot" ? "CBOT" : "CME",
    base: { symbol: unit, decimals: 2 },
    quote: usd,
    priceScale,
    tickSize: "1",
    quantityScale: 2,
    lotSize: "1",
    calendarId,
    products: ["perpetual", "seconds"],
    simulation: { startPrice, dailyVolume: "1000000", volatilityBpsYearly },
  };
}

// prettier-ignore
const drafts: Draft[] = [
  crypto("BTC", "Bitcoin", "比特幣", 8, 2, 4, "95000.00", "20000"),
  crypto("ETH", "Ethereum", "以太坊", 8, 2, 4, "3400.00", "300000"),
  crypto("BNB", "BNB", "幣安幣", 8, 2, 3, "900.00", "200000"),
  crypto("SOL", "Solana", "Solana", 8, 2, 3, "180.00", "2000000"),
  crypto("XRP", "XRP", "瑞波幣", 6, 4, 1, "2.3000", "100000000"),
  crypto("ADA", "Cardano", "艾達幣", 6, 4, 1, "0.7500", "200000000"),
  crypto("DOGE", "Dogecoin", "狗狗幣", 8, 5, 0, "0.22000", "1000000000"),
  crypto("TRX", "TRON", "波場", 6, 5, 0, "0.28000", "300000000"),
  crypto("LTC", "Litecoin", "萊特幣", 8, 2, 3, "95.00", "500000"),
  crypto("DOT", "Polkadot", "波卡", 8, 3, 2, "5.500", "5000000"),
  usStock("AAPL", "Apple", "蘋果", "230.00", 2500),
  usStock("MSFT", "Microsoft", "微軟", "420.00", 2500),
  usStock("NVDA", "NVIDIA", "輝達", "140.00", 5000),
  usStock("AMZN", "Amazon", "亞馬遜", "200.00", 3200),
  usStock("GOOGL", "Alphabet", "Alphabet", "170.00", 3000),
  usStock("META", "Meta Platforms", "Meta", "570.00", 3500),
  usStock("TSLA", "Tesla", "特斯拉", "250.00", 6000),
  usStock("JPM", "JPMorgan Chase", "摩根大通", "240.00", 2200),
  hkStock("0700", "Tencent", "騰訊控股", "420.000", "200", "100"),
  hkStock("9988", "Alibaba", "阿里巴巴", "85.000", "50", "100"),
  hkStock("0005", "HSBC Holdings", "滙豐控股", "75.000", "50", "400"),
  hkStock("1299", "AIA Group", "友邦保險", "60.000", "50", "200"),
  hkStock("3690", "Meituan", "美團", "150.000", "100", "100"),
  forex("EUR", "USD", "歐元/美元", "1.08500", 5),
  forex("GBP", "USD", "英鎊/美元", "1.27000", 5),
  forex("USD", "JPY", "美元/日圓", "150.000", 3),
  forex("AUD", "USD", "澳元/美元", "0.66000", 5),
  forex("USD", "CAD", "美元/加元", "1.36000", 5),
  forex("USD", "CHF", "美元/瑞郎", "0.88000", 5),
  forex("NZD", "USD", "紐元/美元", "0.60000", 5),
  metal("XAU", "Gold", "黃金", "2650.00", 1600),
  metal("XAG", "Silver", "白銀", "31.000", 2800),
  metal("XPT", "Platinum", "鉑金", "950.00", 2500),
  metal("XPD", "Palladium", "鈀金", "1000.00", 3500),
  commodity("WTI", "WTI crude oil", "WTI 原油", "BBL", "72.00", 2, "cme", 3500),
  commodity("BRENT", "Brent crude oil", "布蘭特原油", "BBL", "76.00", 2, "cme", 3200),
  commodity("NATGAS", "Natural gas", "天然氣", "MMBTU", "3.000", 3, "cme", 6000),
  commodity("COPPER", "Copper", "銅", "LB", "4.2000", 4, "cme", 2500),
  commodity("CORN", "Corn", "玉米", "BU", "4.3000", 4, "cbot", 2500),
  commodity("WHEAT", "Wheat", "小麥", "BU", "5.5000", 4, "cbot", 3000),
  commodity("SOYBEAN", "Soybeans", "大豆", "BU", "10.0000", 4, "cbot", 2000),
];

function finish(draft: Draft): Instrument {
  const tickSize = unitsOf(draft.tickSize, 0);
  const lotSize = unitsOf(draft.lotSize, 0);
  if (tickSize === null || tickSize <= 0n || lotSize === null || lotSize <= 0n) {
    throw new Error(`instrument ${draft.id}: bad tick or lot size`);
  }
  return {
    ...draft,
    tickSize,
    lotSize,
    stampDutyBps: draft.stampDutyBps ?? 0,
    simulation: { ...classDefaults[draft.assetClass], ...draft.simulation },
  };
}

/** The catalogue: every instrument Candor lists, grouped in the order of the quotation tabs. */
export const instruments: readonly Instrument[] = drafts.map(finish);

const instrumentsById = new Map(instruments.map((i) => [i.id, i]));

/** The instrument with this id, or undefined. Ids are case-sensitive. */
export function findInstrument(id: string): Instrument | undefined {
  return instrumentsById.get(id);
}
