/**
 * The specification's page paths (spec §2, `/pages/<area>/<page>`) and the readable hash routes
 * that replace them (DESIGN §4). Old links keep working: each listed path redirects. Later
 * issues add their pages here the same way.
 */
export const legacyRedirects: Readonly<Record<string, string>> = {
  "/pages/index/index": "/",
  "/pages/index/quotation": "/quotation",
  "/pages/index/web": "/wallet/info",
  "/pages/index/search": "/search",
  "/pages/index/Assets": "/assets",
  "/pages/assets/xiaoxitongzhi": "/notices",
  "/pages/assets/xiaoxitongzhiDetails": "/notices",
  "/pages/assets/shezhi": "/settings",
  "/pages/assets/anquanzhongxin": "/security",
  "/pages/assets/xiugaimima": "/security",
  "/pages/assets/auth": "/identity",
  "/pages/index/CertificationInformation": "/identity",
  "/pages/index/News": "/news",
  "/pages/index/friend": "/invite",
  "/pages/index/activity": "/activity",
  "/pages/webview/customer": "/support",
  "/pages/index/side": "/side",
  "/pages/index/newsDetails": "/news",
  "/pages/login/login": "/login",
  "/pages/login/register": "/register",
  "/pages/login/forget": "/forgot-password",
  "/pages/index/Exchange": "/assets/exchange",
  "/pages/index/ExchangeList": "/assets/exchange",
  "/pages/index/buy": "/buy",
  "/pages/index/Transfer": "/assets/transfer",
  "/pages/index/TransferList": "/assets/transfer",
  "/pages/assets/zhanghuDetail": "/assets/account/fund",
  "/pages/assets/tibidizhi": "/assets/addresses",
  "/pages/assets/tibidizhiEdit": "/assets/addresses",
  "/pages/index/Options": "/options",
  "/pages/futures/OptionOrder": "/options/orders",
  "/pages/index/Stock": "/stocks",
  "/pages/option/stocksDetail": "/stocks",
  "/pages/futures/StockOrders": "/stocks/orders",
  "/pages/index/ToLoan": "/loans",
  "/pages/index/ToLoanList": "/loans/mine",
};

/** Legacy detail pages that name their item by `?id=`: the readable route of that item. */
const legacyDetailRoutes: Readonly<Record<string, (id: string) => string>> = {
  "/pages/assets/xiaoxitongzhiDetails": (id) => `/notices/${id}`,
  "/pages/index/newsDetails": (id) => `/news/${id}`,
};

/** Legacy detail pages that name a stock by `?symbol=`. */
const legacySymbolRoutes: Readonly<Record<string, (symbol: string) => string>> = {
  "/pages/option/stocksDetail": (symbol) => `/stocks/${encodeURIComponent(symbol)}`,
};

/** The readable route for a legacy path (query kept), or undefined when it is not one. */
export function redirectForLegacyPath(pathWithQuery: string): string | undefined {
  const [pathname = "", query] = pathWithQuery.split("?", 2);
  const path = pathname.replace(/\/+$/, "");
  // A detail page opens its item, not the list (issue 18); an id that is not a number does not.
  const id = new URLSearchParams(query ?? "").get("id");
  const detail = legacyDetailRoutes[path];
  if (detail && id !== null && /^\d{1,19}$/.test(id)) return detail(id);
  const symbol = new URLSearchParams(query ?? "").get("symbol");
  const bySymbol = legacySymbolRoutes[path];
  if (bySymbol && symbol !== null && /^[A-Za-z0-9.]{1,20}$/.test(symbol)) return bySymbol(symbol);
  const target = legacyRedirects[path];
  if (target === undefined) return undefined;
  return query ? `${target}?${query}` : target;
}
