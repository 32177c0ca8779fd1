export { SearchPage as Component } from "../../features/market-data/components/search-page.tsx";
