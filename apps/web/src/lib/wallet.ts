/** An injected EIP-1193 provider (a wallet browser extension). */
export interface InjectedWallet {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** Poll every 100 ms, about 3 times (spec §1), before saying there is no wallet. */
export const walletPollMs = 100;
export const walletPollAttempts = 3;

function injected(): InjectedWallet | undefined {
  const candidate = (window as Window & { ethereum?: InjectedWallet }).ethereum;
  return candidate && typeof candidate.request === "function" ? candidate : undefined;
}

/** Resolves with the injected wallet, or undefined after the last poll finds none. */
export function detectWallet(
  pollMs = walletPollMs,
  attempts = walletPollAttempts,
): Promise<InjectedWallet | undefined> {
  return new Promise((resolve) => {
    let tries = 0;
    const check = () => {
      const wallet = injected();
      tries += 1;
      if (wallet || tries > attempts) return resolve(wallet);
      setTimeout(check, pollMs);
    };
    check();
  });
}

/** Chains a wallet may sign in from (spec §7: Ethereum, BNB Smart Chain, Cronos). */
export const signInChainIds = [1, 56, 25] as const;

/**
 * The EIP-4361 (Sign-In with Ethereum) message text. Signing it proves control of the address;
 * it grants no token approval and moves nothing (DESIGN §1.6).
 */
export function siweMessage(input: {
  domain: string;
  address: string;
  statement: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
}): string {
  return [
    `${input.domain} wants you to sign in with your Ethereum account:`,
    input.address,
    "",
    input.statement,
    "",
    `URI: ${input.uri}`,
    "Version: 1",
    `Chain ID: ${input.chainId}`,
    `Nonce: ${input.nonce}`,
    `Issued At: ${input.issuedAt}`,
  ].join("\n");
}
