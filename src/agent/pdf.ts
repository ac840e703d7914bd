/**
 * PDF text through pdf-parse 2, loaded only when a PDF is attached so activation stays cheap.
 * This is the one place that loads pdf-parse: a bundle that needs its globals (DOMMatrix,
 * ImageData, Path2D) or its worker module handed over in-process adjusts `load` alone.
 */

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

function load(): Promise<ParserClass> {
  loading ??= Promise.resolve().then(() => {
    // require, not import(): the extension is CommonJS, and this picks pdf-parse's CommonJS build.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require("pdf-parse") as typeof import("pdf-parse");
    return module.PDFParse as unknown as ParserClass;
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
    throw new Error(
      `it could not be read as a PDF (${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}
