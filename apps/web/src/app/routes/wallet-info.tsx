export { WalletInfoPage as Component } from "../../features/auth/components/wallet-page.tsx";
