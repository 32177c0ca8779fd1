/**
 * Solves the server's proof-of-work captcha (ALTCHA-style): finds n in 0…maxNumber with
 * SHA-256(salt + n) = challenge. SHA-256 is computed here in plain TypeScript rather than with
 * WebCrypto: `crypto.subtle` answers one promise per hash (slow for millions of tiny inputs)
 * and does not exist on plain-http origins other than localhost (a LAN install without TLS).
 */

const k = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const w = new Uint32Array(64);
/** Room for the salt and the digits of any number (salts are 35 ASCII characters). */
const buffer = new Uint8Array(256);

/**
 * SHA-256 of `buffer[0…length)` into `out` (eight words). The buffer is padded in place, so
 * the caller rewrites the bytes after its fixed prefix before each call.
 */
function digestInto(length: number, out: Uint32Array): void {
  const blocks = Math.ceil((length + 9) / 64);
  const end = blocks * 64;
  if (end > buffer.length) throw new Error("input too long for the captcha solver");
  buffer[length] = 0x80;
  buffer.fill(0, length + 1, end - 4);
  const bits = length * 8;
  buffer[end - 4] = (bits >>> 24) & 0xff;
  buffer[end - 3] = (bits >>> 16) & 0xff;
  buffer[end - 2] = (bits >>> 8) & 0xff;
  buffer[end - 1] = bits & 0xff;
  let h0 = 0x6a09e667;
  let h1 = 0xbb67ae85;
  let h2 = 0x3c6ef372;
  let h3 = 0xa54ff53a;
  let h4 = 0x510e527f;
  let h5 = 0x9b05688c;
  let h6 = 0x1f83d9ab;
  let h7 = 0x5be0cd19;
  for (let block = 0; block < end; block += 64) {
    for (let i = 0; i < 16; i++) {
      const j = block + i * 4;
      w[i] = (buffer[j]! << 24) | (buffer[j + 1]! << 16) | (buffer[j + 2]! << 8) | buffer[j + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + k[i]! + w[i]!) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  out[0] = h0;
  out[1] = h1;
  out[2] = h2;
  out[3] = h3;
  out[4] = h4;
  out[5] = h5;
  out[6] = h6;
  out[7] = h7;
}

/** Writes ASCII `text` into the buffer at `offset`; the offset after it. */
function writeAscii(text: string, offset: number): number {
  for (let i = 0; i < text.length; i++) buffer[offset + i] = text.charCodeAt(i) & 0xff;
  return offset + text.length;
}

/** SHA-256 of an ASCII string (the salt and digits are ASCII), as lower-case hex. */
export function sha256Hex(text: string): string {
  const out = new Uint32Array(8);
  digestInto(writeAscii(text, 0), out);
  let hex = "";
  for (const word of out) hex += word.toString(16).padStart(8, "0");
  return hex;
}

/** What the solver needs of a challenge (the API's `getCaptcha` answer). */
export interface ProofOfWorkChallenge {
  challenge: string;
  salt: string;
  maxNumber: number;
}

/** Numbers tried between two yields to the browser, so the page stays responsive. */
const sliceSize = 20_000;

/**
 * Finds the challenge's number, yielding to the event loop every `sliceSize` tries. Resolves
 * with the number as a decimal string, or null when none in range matches (a broken challenge).
 */
export async function solveProofOfWork(challenge: ProofOfWorkChallenge): Promise<string | null> {
  if (!/^[0-9a-f]{64}$/.test(challenge.challenge)) return null;
  const wanted = new Uint32Array(8);
  for (let i = 0; i < 8; i++) wanted[i] = parseInt(challenge.challenge.slice(i * 8, i * 8 + 8), 16);
  const out = new Uint32Array(8);
  for (let start = 0; start <= challenge.maxNumber; start += sliceSize) {
    const stop = Math.min(start + sliceSize - 1, challenge.maxNumber);
    for (let number = start; number <= stop; number++) {
      // The salt is rewritten each time: padding overwrote the bytes after the previous input.
      const length = writeAscii(String(number), writeAscii(challenge.salt, 0));
      digestInto(length, out);
      if (out[0] === wanted[0] && out.every((word, i) => word === wanted[i])) {
        return String(number);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return null;
}
