export { QuotationPage as Component } from "../../features/market-data/components/quotation-page.tsx";
