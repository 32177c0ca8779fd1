import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** log2 of scrypt's N in production (N = 2^17, r = 8, p = 1: about 128 MiB and 0.2–0.5 s). */
export const defaultPasswordCost = 17;

function scryptAsync(password: string, salt: Buffer, cost: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password.normalize("NFKC"),
      salt,
      32,
      { N: 2 ** cost, r, p, maxmem: 256 * 2 ** cost * r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** Hashes a password as `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (base64url). */
export async function hashPassword(password: string, cost = defaultPasswordCost): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, cost, 8, 1);
  return `scrypt$${cost}$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Checks a password against a stored hash in constant time; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !cost || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await scryptAsync(
    password,
    Buffer.from(salt, "base64url"),
    Number(cost),
    Number(r),
    Number(p),
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
