/**
 * PDF text through pdf-parse 2, loaded only when a PDF is attached so activation stays cheap.
 * This is the one place that loads pdf-parse. In the packaged extension it is its own bundle,
 * `pdf.js`, beside the running one (built from `pdf-bundle.ts`, ~1.5 MB, with pdfjs's worker inside);
 * run from source (tests, tsx) it is the package from node_modules.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { reason } from "../protocol/reason";

interface Parsed {
  text: string;
  pages: { num: number; text: string }[];
  total: number;
}
interface Parser {
  getText(): Promise<Parsed>;
  destroy(): Promise<void>;
}
type ParserClass = new (options: { data: Uint8Array; verbosity?: number }) => Parser;

let loading: Promise<ParserClass> | undefined;

/** Where the parser comes from: the PDF bundle beside this code when there is one, else the package. */
export function pdfSource(dir: string = __dirname): string {
  const bundled = join(dir, "pdf.js");
  return existsSync(bundled) ? bundled : "pdf-parse";
}

function load(): Promise<ParserClass> {
  loading ??= Promise.resolve()
    .then(() => {
      // A require made at run time: the bundler must neither follow it (pdf-parse would land in the
      // extension's own bundle) nor rewrite it. require, not import(): this picks CommonJS builds.
      const runtime = createRequire(__filename);
      const module = runtime(pdfSource()) as { PDFParse: ParserClass };
      return module.PDFParse;
    })
    .catch((error: unknown) => {
      loading = undefined;
      const why = reason(error).split("\n")[0];
      throw new Error(`the PDF reader could not be loaded (${why})`);
    });
  return loading;
}

/** The text of a PDF, page by page; throws a sentence a person understands when it cannot be read. */
export async function pdfText(data: Uint8Array): Promise<string> {
  const PDFParse = await load();
  // pdfjs takes over (detaches) the buffer it is given: hand it a copy.
  const parser = new PDFParse({ data: new Uint8Array(data), verbosity: 0 });
  try {
    const parsed = await parser.getText();
    return parsed.pages
      .map((page) => page.text.trim())
      .join("\n\n")
      .trim();
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") throw new Error("it is protected by a password");
    if (name === "InvalidPDFException") throw new Error("it is not a valid PDF");
    throw new Error(`it could not be read as a PDF (${reason(error)})`);
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}
