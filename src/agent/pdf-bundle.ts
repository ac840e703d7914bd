/**
 * The entry of `dist/pdf.js`: pdf-parse with everything it needs in one file, so the packaged
 * extension reads PDFs with no node_modules. `pdf.ts` loads it only when a PDF is attached.
 *
 * pdfjs reaches for `@napi-rs/canvas` through a `createRequire` the bundler cannot follow, and runs
 * `new DOMMatrix()` as it loads: minimal globals stand in (text extraction draws nothing). Its worker
 * is a separate file it imports at run time; bundled here and handed over in-process instead.
 */

/** The 2D matrix pdfjs builds as it loads; only its fields, as extracting text transforms nothing. */
class Matrix {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
  constructor(init?: ArrayLike<number>) {
    if (init && init.length === 6) [this.a, this.b, this.c, this.d, this.e, this.f] = Array.from(init);
  }
}

/** Pixels of a picture, as pdfjs allocates them; never drawn when extracting text. */
class Pixels {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
  constructor(data: Uint8ClampedArray | number, width: number, height?: number) {
    this.data = typeof data === "number" ? new Uint8ClampedArray(data * width * 4) : data;
    this.width = typeof data === "number" ? data : width;
    this.height = typeof data === "number" ? width : (height ?? data.length / 4 / width);
  }
}

/** A drawing path; pdfjs makes them for glyph outlines only when it renders, which text extraction does not. */
class Path {}

// Only when absent: an editor that has real ones (a browser-like host) keeps them.
// Necessary cast: the names set here are not in Node's globalThis type; they are only set when absent.
const host = globalThis as unknown as Record<string, unknown>;
host.DOMMatrix ??= Matrix;
host.ImageData ??= Pixels;
host.Path2D ??= Path;

// pdf-parse's exports hide its worker, so it is taken by path; this file is only ever bundled.
// eslint-disable-next-line @typescript-eslint/no-require-imports
host.pdfjsWorker = require("../../node_modules/pdf-parse/dist/pdf-parse/cjs/pdf.worker.mjs");

/** pdf-parse's parser class, ready to run in this process. */
export const PDFParse = quietly(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("pdf-parse") as typeof import("pdf-parse")).PDFParse;
});

/** Runs `load` without pdfjs's warning that the optional canvas package is missing (it is meant to be). */
function quietly<T>(load: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes("@napi-rs/canvas")) warn(...args);
  };
  try {
    return load();
  } finally {
    console.warn = warn;
  }
}
