// Draws the app icon, build/icon.png (1024×1024 RGBA): a solar disk with limb darkening inside a
// streamered corona, on a night-sky tile. electron-builder derives the macOS .icns and Windows .ico
// from it. Plain Node (zlib for the PNG), so anyone can regenerate it: node build/make-icon.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 1024;
const CENTER = SIZE / 2;
const TILE = { inset: 64, radius: 190 };
const SUN_RADIUS = 185;
// Four samples a pixel, for smooth edges.
const SUBSAMPLES = [
  [0.25, 0.25],
  [0.75, 0.25],
  [0.25, 0.75],
  [0.75, 0.75],
];

// Streamers: [angle in degrees (0 = right, counter-clockwise), width in degrees, strength]. Broad
// helmet streamers near the equator narrowing outwards, thin polar plumes, as the corona looks near
// solar minimum.
const STREAMERS = [
  [12, 16, 1.25],
  [168, 18, 1.1],
  [196, 14, 1.0],
  [344, 20, 1.2],
  [90, 5, 0.35],
  [78, 4, 0.25],
  [102, 4, 0.25],
  [270, 5, 0.35],
  [258, 4, 0.25],
  [282, 4, 0.25],
  [40, 7, 0.45],
  [140, 8, 0.4],
  [222, 7, 0.45],
  [318, 8, 0.4],
];

function mix(a, b, t) {
  return a + (b - a) * t;
}

function clamp(value, low = 0, high = 1) {
  return Math.min(high, Math.max(low, value));
}

function angularDistance(a, b) {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/** Inside the rounded-square tile? Returns coverage 0..1 (with a one-pixel soft edge). */
function tileCoverage(x, y) {
  const half = SIZE / 2 - TILE.inset;
  const dx = Math.max(Math.abs(x - CENTER) - (half - TILE.radius), 0);
  const dy = Math.max(Math.abs(y - CENTER) - (half - TILE.radius), 0);
  return clamp(TILE.radius - Math.hypot(dx, dy) + 0.5);
}

/** The colour of one point of the picture, as linear [r, g, b] in 0..1. */
function shade(x, y) {
  const dx = x - CENTER;
  const dy = CENTER - y;
  const r = Math.hypot(dx, dy);
  const angle = ((Math.atan2(dy, dx) * 180) / Math.PI + 360) % 360;

  // Night sky: deep blue, a little lighter towards the middle.
  const sky = clamp(1 - r / (SIZE * 0.62));
  let color = [mix(0.001, 0.008, sky), mix(0.002, 0.014, sky), mix(0.012, 0.05, sky)];

  if (r > SUN_RADIUS - 1) {
    // Corona: a smooth glow falling off with height, brightened along the streamers.
    const height = (r - SUN_RADIUS) / SUN_RADIUS;
    let streamers = 0;
    for (const [center, width, strength] of STREAMERS) {
      const spread = width / (1 + height * 0.8);
      streamers += strength * Math.exp(-((angularDistance(angle, center) / spread) ** 2));
    }
    const glow = Math.exp(-height * 10) * 0.95 + Math.exp(-height * 2.4) * streamers * 0.7;
    const warmth = clamp(1 - height * 2.5);
    const corona = [mix(0.75, 1.0, warmth), mix(0.82, 0.8, warmth), mix(1.0, 0.45, warmth)];
    const amount = clamp(glow);
    color = color.map((channel, i) => mix(channel, corona[i], amount));
  }

  const disk = clamp(SUN_RADIUS - r + 0.5);
  if (disk > 0) {
    // Photosphere with limb darkening: I(mu) = 1 - u(1 - mu).
    const mu = Math.sqrt(clamp(1 - (r / SUN_RADIUS) ** 2));
    const intensity = 1 - 0.62 * (1 - mu);
    const limb = (1 - intensity) / 0.62;
    const surface = [mix(1.0, 0.9, limb), mix(0.72, 0.22, limb), mix(0.28, 0.01, limb)];
    color = color.map((channel, i) => mix(channel, clamp(surface[i]), disk));
  }
  return color;
}

function render() {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y += 1) {
    for (let x = 0; x < SIZE; x += 1) {
      let red = 0;
      let green = 0;
      let blue = 0;
      let alpha = 0;
      for (const [sx, sy] of SUBSAMPLES) {
        const coverage = tileCoverage(x + sx, y + sy);
        if (coverage === 0) continue;
        const [r, g, b] = shade(x + sx, y + sy);
        red += r * coverage;
        green += g * coverage;
        blue += b * coverage;
        alpha += coverage;
      }
      const offset = (y * SIZE + x) * 4;
      if (alpha > 0) {
        // Stored un-premultiplied, with a gamma of 2.2 for the screen.
        pixels[offset] = Math.round(255 * (red / alpha) ** (1 / 2.2));
        pixels[offset + 1] = Math.round(255 * (green / alpha) ** (1 / 2.2));
        pixels[offset + 2] = Math.round(255 * (blue / alpha) ** (1 / 2.2));
      }
      pixels[offset + 3] = Math.round((255 * alpha) / SUBSAMPLES.length);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(rgba, width, height) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    // Filter type 0 (none) at the start of each row.
    rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const target = new URL('./icon.png', import.meta.url);
writeFileSync(target, encodePng(render(), SIZE, SIZE));
console.log(`Wrote ${target.pathname}`);
