// Synthetic FITS files (80-character cards, 2880-byte blocks, big-endian float32 images) whose content is
// deterministic per file name, laid out as the archive's are: a KCor file is one primary HDU holding its image; a
// UCoMP file is an empty primary HDU (NAXIS = 0, EXTEND = T, NEXTEND = n) followed by n IMAGE extensions, each
// named by EXTNAME (see ucomp-files.ts). Generated row by row so an 8192x8192 image never sits in memory.
import { constants, type ZlibOptions } from 'node:zlib';
import { hash32 } from './seeded-random';
import { imageGeometry, type ImageGeometry } from './image-geometry';
import { LINE_CENTRES, ucompExtensionNames } from './ucomp-files';
import type { InstrumentId, WaveRegion } from './instruments';
import type { EmulatorOptions } from './options';

const BLOCK = 2880;
const CARD = 80;
/** Every synthetic header fits in one block (checked when built), so a file's size follows from the image size. */
const HEADER_BYTES = BLOCK;

// Keeping 16 of float32's 23 mantissa bits (the rest zeroed) makes gzip shrink a 1024x1024 image to ~0.68 of its
// size, close to real KCor L2 files (~4.2 MB raw, ~2.9 MB gzipped). The noisy low bits defeat LZ77 matching anyway,
// so run-length matching (Z_RLE) gives about the same ratio as level 6 much faster, which matters for the
// benchmark's 256 MB file.
const KEPT_MANTISSA_BITS = 16;
const MANTISSA_MASK = (0xffffffff << (23 - KEPT_MANTISSA_BITS)) >>> 0;
export const GZIP_OPTIONS: ZlibOptions = Object.freeze({ level: 1, strategy: constants.Z_RLE });
/**
 * Measured gzip size / raw size of synthetic files at their real sizes (KCor 1024 x 1024, UCoMP 1280 x 1024; the
 * ratio hardly changes with the size), per instrument: a UCoMP image's occulter covers more of it (its plate scale
 * is finer, so the Sun is larger in pixels, and its frame is shorter than wide), and its zeros compress away. Used
 * for the listed `filesize` estimates.
 */
export const MEASURED_GZIP_RATIO: Readonly<Record<InstrumentId, number>> = { kcor: 0.681, ucomp: 0.532 };

export interface FitsSubject {
  instrument: InstrumentId;
  product: string;
  filename: string;
  dateObs: string;
  waveRegion?: WaveRegion;
  obsPlan?: string;
  /** Tunings of a UCoMP exposure: level 1 files hold one extension per wavelength. */
  wavelengths?: number;
}

/** The knobs that size synthetic images. */
export type ImageSizes = Pick<EmulatorOptions, 'imageSize' | 'ucompImageSize'>;

const roundUp = (bytes: number): number => Math.ceil(bytes / BLOCK) * BLOCK;
const paddingAfter = (bytes: number): number => roundUp(bytes) - bytes;

/** The size knob that applies to the subject: its images' width (and a KCor image's height). */
export function imageSizeOf(subject: FitsSubject, sizes: ImageSizes): number {
  return subject.instrument === 'ucomp' && sizes.ucompImageSize > 0 ? sizes.ucompImageSize : sizes.imageSize;
}

/** A UCoMP level 2 extension is 1280 x 1024 (its camera's shape): at any synthetic width, the height keeps the ratio. */
const UCOMP_HEIGHT_PER_WIDTH = 1024 / 1280;

/** Width (NAXIS1) and height (NAXIS2) of the subject's images: KCor's are square, UCoMP's 5:4. */
function imageShapeOf(subject: FitsSubject, sizes: ImageSizes): { width: number; height: number } {
  const width = imageSizeOf(subject, sizes);
  return { width, height: subject.instrument === 'ucomp' ? Math.max(1, Math.round(width * UCOMP_HEIGHT_PER_WIDTH)) : width };
}

/** EXTNAME of each image extension; none for a file whose image is in its primary HDU. */
function extensionNames(subject: FitsSubject): string[] {
  return subject.instrument === 'ucomp' ? ucompExtensionNames(subject) : [];
}

/** Bytes of the uncompressed file: headers and padded images. */
export function rawFitsSize(subject: FitsSubject, sizes: ImageSizes): number {
  const { width, height } = imageShapeOf(subject, sizes);
  const image = roundUp(width * height * 4);
  const extensions = extensionNames(subject).length;
  return extensions === 0 ? HEADER_BYTES + image : HEADER_BYTES + extensions * (HEADER_BYTES + image);
}

/** Bytes of zero padding after the last data unit, to the end of its last 2,880-byte block (0 when it ends there). */
export function finalPaddingBytes(subject: FitsSubject, sizes: ImageSizes): number {
  const { width, height } = imageShapeOf(subject, sizes);
  return paddingAfter(width * height * 4);
}

function card(keyword: string, value: string, comment = ''): string {
  const text = `${keyword.padEnd(8)}= ${value}${comment ? ` / ${comment}` : ''}`;
  return text.slice(0, CARD).padEnd(CARD);
}
const fixed = (value: string): string => value.padStart(20);
const quoted = (value: string): string => `'${value.replaceAll("'", "''").padEnd(8)}'`.padEnd(20);

const imageAxes = ({ width, height }: { width: number; height: number }): string[] => [
  card('BITPIX', fixed('-32'), 'IEEE single precision floating point'),
  card('NAXIS', fixed('2'), 'number of array dimensions'),
  card('NAXIS1', fixed(String(width)), 'length of data axis 1'),
  card('NAXIS2', fixed(String(height)), 'length of data axis 2'),
];

/** The primary header: the image's axes when it holds the image, else NAXIS = 0 and the count of extensions. */
export function fitsHeader(subject: FitsSubject, sizes: ImageSizes): Buffer {
  const kcor = subject.instrument === 'kcor';
  const extensions = extensionNames(subject).length;
  const layout =
    extensions === 0
      ? imageAxes(imageShapeOf(subject, sizes))
      : [
          card('BITPIX', fixed('8'), 'no data in the primary HDU'),
          card('NAXIS', fixed('0'), 'no data in the primary HDU'),
          card('EXTEND', fixed('T'), 'image extensions follow'),
          card('NEXTEND', fixed(String(extensions)), 'number of extensions'),
        ];
  let cards = [
    card('SIMPLE', fixed('T'), 'file does conform to FITS standard'),
    ...layout,
    card('DATE-OBS', quoted(subject.dateObs), '[UT] date/time of the observation'),
    card('INSTRUME', quoted(kcor ? 'COSMO K-Coronagraph' : 'UCoMP'), 'instrument'),
    card('TELESCOP', quoted(kcor ? 'COSMO K-Coronagraph' : 'Upgraded Coronal Multi-Polarimeter'), 'telescope'),
    card('ORIGIN', quoted('HAO/MLSO'), 'Mauna Loa Solar Observatory'),
    card('OBJECT', quoted(kcor ? 'Solar K-Corona' : 'Solar Corona'), 'observed object'),
    card('FILENAME', quoted(subject.filename), 'name of this file'),
    card('PRODUCT', quoted(subject.product), 'product id in the MLSO data API'),
  ];
  if (subject.waveRegion) {
    cards.push(card('WAVELNG', fixed(LINE_CENTRES[subject.waveRegion].toFixed(2)), '[nm] wavelength of the line'));
    cards.push(card('WAVEREGN', quoted(subject.waveRegion), '[nm] wave region'));
  }
  if (subject.obsPlan) cards.push(card('OBS_PLAN', quoted(subject.obsPlan), 'observing plan'));
  const geometry = geometryOf(subject, sizes);
  // The Sun's size and distance describe the observation: a multi-extension file says them once, in the primary
  // header; each extension gives its own axes.
  const described = extensions === 0 ? [card('BUNIT', quoted(kcor ? 'B/Bsun' : 'ppm'), 'units of the data'), ...coordinateCards(geometry)] : [];
  cards = cards.concat(described, sunCards(geometry));
  cards.push('COMMENT Synthetic image made by the MLSO Downloader API emulator, not observed'.padEnd(CARD));
  return headerBlock(cards, subject.filename);
}

/** The header of an IMAGE extension named `extname`. */
function extensionHeader(subject: FitsSubject, shape: { width: number; height: number }, extname: string, geometry: ImageGeometry): Buffer {
  const cards = [
    card('XTENSION', quoted('IMAGE'), 'image extension'),
    ...imageAxes(shape),
    card('PCOUNT', fixed('0'), 'no parameters'),
    card('GCOUNT', fixed('1'), 'one group'),
    card('EXTNAME', quoted(extname), 'what this extension holds'),
    card('DATE-OBS', quoted(subject.dateObs), '[UT] date/time of the observation'),
    card('BUNIT', quoted('ppm'), 'units of the data'),
    ...coordinateCards(geometry),
  ];
  return headerBlock(cards, `${subject.filename}[${extname}]`);
}

/** The file's pointing and the Sun's size: one per file (every extension of a UCoMP file shares them). */
function geometryOf(subject: FitsSubject, sizes: ImageSizes): ImageGeometry {
  const { width, height } = imageShapeOf(subject, sizes);
  return imageGeometry(subject.instrument, subject.dateObs, width, height, subject.filename);
}

const real = (value: number, digits: number): string => fixed(value.toFixed(digits));

/** The image's world coordinates, as a level 2 file states them (FITS WCS papers I and II). */
function coordinateCards(geometry: ImageGeometry): string[] {
  return [
    card('WCSNAME', quoted('helioprojective-cartesian'), 'world coordinate system name'),
    card('CTYPE1', quoted('HPLN-TAN'), 'helioprojective longitude, gnomonic'),
    card('CTYPE2', quoted('HPLT-TAN'), 'helioprojective latitude, gnomonic'),
    card('CUNIT1', quoted('arcsec'), 'units of CRVAL1 and CDELT1'),
    card('CUNIT2', quoted('arcsec'), 'units of CRVAL2 and CDELT2'),
    card('CRPIX1', real(geometry.centreX, 3), '[pixel] x of the Sun centre (1-based)'),
    card('CRPIX2', real(geometry.centreY, 3), '[pixel] y of the Sun centre (1-based)'),
    card('CRVAL1', real(0, 3), '[arcsec] Sun centre'),
    card('CRVAL2', real(0, 3), '[arcsec] Sun centre'),
    card('CDELT1', real(geometry.arcsecPerPixel, 4), '[arcsec/pixel] plate scale'),
    card('CDELT2', real(geometry.arcsecPerPixel, 4), '[arcsec/pixel] plate scale'),
    card('CROTA2', real(geometry.rollDeg, 3), '[deg] rotation from solar north'),
    card('INST_ROT', real(geometry.rollDeg, 3), '[deg] rotation of the image from solar north'),
    card('R_SUN', real(geometry.sunRadiusArcsec / geometry.arcsecPerPixel, 3), '[pixel] solar radius'),
  ];
}

function sunCards(geometry: ImageGeometry): string[] {
  return [
    card('RSUN_OBS', real(geometry.sunRadiusArcsec, 3), '[arcsec] apparent solar radius'),
    card('DSUN_OBS', fixed(geometry.sunDistanceMetres.toExponential(9).toUpperCase()), '[m] distance from the Sun'),
  ];
}

function headerBlock(cards: string[], name: string): Buffer {
  cards.push('END'.padEnd(CARD));
  if (cards.some((c) => c.length !== CARD)) throw new Error('synthetic FITS card is not 80 characters long');
  const text = cards.join('');
  if (text.length > HEADER_BYTES) throw new Error(`synthetic FITS header of ${name} outgrew one block`);
  return Buffer.from(text.padEnd(HEADER_BYTES, ' '), 'latin1');
}

/** Yields the whole file (headers, image rows, zero padding) in chunks of about 64 KB, computing rows on demand. */
export function* fitsChunks(subject: FitsSubject, sizes: ImageSizes): Generator<Buffer> {
  yield fitsHeader(subject, sizes);
  const shape = imageShapeOf(subject, sizes);
  const geometry = geometryOf(subject, sizes);
  const extensions = extensionNames(subject);
  if (extensions.length === 0) {
    yield* imageChunks(new CoronaImage(subject, shape.width, subject.filename, geometry), shape);
    return;
  }
  for (const extname of extensions) {
    yield extensionHeader(subject, shape, extname, geometry);
    // Seeded by file and extension, so every extension holds its own picture (around the file's one Sun).
    yield* imageChunks(new CoronaImage(subject, shape.width, `${subject.filename}[${extname}]`, geometry), shape);
  }
}

/** The image's rows, then the zero padding to whole blocks. */
function* imageChunks(image: CoronaImage, { width, height }: { width: number; height: number }): Generator<Buffer> {
  const rowsPerChunk = Math.max(1, Math.floor(65536 / (4 * width)));
  for (let y = 0; y < height; y += rowsPerChunk) {
    const rows = Math.min(rowsPerChunk, height - y);
    const values = new Float32Array(rows * width);
    for (let r = 0; r < rows; r++) image.fillRow(y + r, values, r * width);
    const bits = new Uint32Array(values.buffer);
    for (let i = 0; i < bits.length; i++) bits[i] = (bits[i] ?? 0) & MANTISSA_MASK;
    yield Buffer.from(values.buffer).swap32(); // FITS is big-endian
  }
  const padding = paddingAfter(width * height * 4);
  if (padding > 0) yield Buffer.alloc(padding);
}

/** The whole file in memory: for tests (`fileBytes`) and for bodies small enough to cache. */
export function fitsBytes(subject: FitsSubject, sizes: ImageSizes): Buffer {
  return Buffer.concat([...fitsChunks(subject, sizes)]);
}

// Relative brightness scale per kind of product, so products of one instant do not look identical.
const PRODUCT_SCALE: Record<string, number> = { nrgf: 4e5, diff: 0.05, avg: 0.9, enhanced: 1.3 };

/** A coronagraph-like picture: occulted disk, radial falloff with streamers, multiplicative noise. */
class CoronaImage {
  private state: number;
  /** The Sun's centre, 0-based (the header's CRPIX less 1). */
  private readonly centreX: number;
  private readonly centreY: number;
  private readonly sunRadius: number;
  private readonly occulter2: number;
  private readonly amplitude: number;
  private readonly cos2phi: number;
  private readonly sin2phi: number;

  constructor(
    subject: FitsSubject,
    /** Pixels per row (NAXIS1). */
    private readonly width: number,
    seedText: string,
    geometry: ImageGeometry,
  ) {
    const seed = hash32(seedText);
    this.state = seed || 1;
    this.centreX = geometry.centreX - 1;
    this.centreY = geometry.centreY - 1;
    this.sunRadius = geometry.sunRadiusArcsec / geometry.arcsecPerPixel;
    this.occulter2 = (1.05 * this.sunRadius) ** 2;
    const kind = Object.keys(PRODUCT_SCALE).find((k) => subject.filename.includes(k));
    this.amplitude = (subject.instrument === 'kcor' ? 1e-6 : 10) * (kind ? (PRODUCT_SCALE[kind] ?? 1) : 1);
    const phi = ((seed >>> 8) / 16777216) * Math.PI; // streamer orientation differs per file
    this.cos2phi = Math.cos(2 * phi);
    this.sin2phi = Math.sin(2 * phi);
  }

  fillRow(y: number, out: Float32Array, offset: number): void {
    const dy = y - this.centreY;
    const scale = this.amplitude * this.sunRadius ** 3;
    let s = this.state;
    for (let x = 0; x < this.width; x++) {
      const dx = x - this.centreX;
      const r2 = dx * dx + dy * dy;
      if (r2 < this.occulter2) {
        out[offset + x] = 0;
        continue;
      }
      const cos2 = ((dx * dx - dy * dy) * this.cos2phi + 2 * dx * dy * this.sin2phi) / r2;
      const falloff = scale / (r2 * Math.sqrt(r2));
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      const noise = ((s >>> 0) / 4294967296) * 0.1 - 0.05;
      out[offset + x] = falloff * (1 + 0.6 * cos2 * cos2) * (1 + noise);
    }
    this.state = s;
  }
}
