// Draws the app's icons (three candles on the brand blue) as PNG files in public/icons:
//   npx tsx apps/web/scripts/make-icons.ts
// The output is committed; run this again only to change the design.
import { writeFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";

const background = [0x18, 0x49, 0xa9];
const up = [0x3d, 0xd6, 0x8c];
const down = [0xff, 0x6b, 0x6b];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** One icon of `size` pixels; the candles fill `content` (0–1) of it, centred. */
function icon(size: number, content: number): Buffer {
  const rows: Buffer[] = [];
  const candles = [
    { x: 0.2, open: 0.62, close: 0.38, low: 0.72, high: 0.3, color: up },
    { x: 0.5, open: 0.3, close: 0.55, low: 0.62, high: 0.2, color: down },
    { x: 0.8, open: 0.68, close: 0.22, low: 0.8, high: 0.12, color: up },
  ];
  const margin = (1 - content) / 2;
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      const x = ((px + 0.5) / size - margin) / content;
      const y = ((py + 0.5) / size - margin) / content;
      let color = background;
      for (const c of candles) {
        const top = Math.min(c.open, c.close);
        const bottom = Math.max(c.open, c.close);
        const inBody = Math.abs(x - c.x) < 0.09 && y >= top && y <= bottom;
        const inWick = Math.abs(x - c.x) < 0.018 && y >= c.high && y <= c.low;
        if (inBody || inWick) color = c.color;
      }
      row.set([...color, 255], 1 + px * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const out = new URL("../public/icons/", import.meta.url);
writeFileSync(new URL("icon-192.png", out), icon(192, 0.84));
writeFileSync(new URL("icon-512.png", out), icon(512, 0.84));
// Maskable: the platform may cut a circle out of it, so the candles stay in the middle 60 %.
writeFileSync(new URL("icon-maskable-512.png", out), icon(512, 0.6));
