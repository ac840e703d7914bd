/** Images pasted from the clipboard, read as `data:` URLs for the host (which checks their bytes again). */
import { t } from "../src/protocol/l10n";

/** Bytes of a pasted image sent at most (the host keeps no more either). */
export const MAX_PASTED_BYTES = 5 * 1024 * 1024;
const RASTER = /^image\/(png|jpeg|gif|webp)$/;

/** A pasted image as the host's `paste` message carries it. */
export interface Pasted {
  name: string;
  data: string;
}

/** The images of a paste, each read (or refused, saying why) on its own. */
export function pastedImages(data: DataTransfer): Promise<Pasted>[] {
  const out: Promise<Pasted>[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== "file" || !item.type.startsWith("image/")) continue;
    const file = item.getAsFile();
    if (!file) continue;
    out.push(readPasted(file));
  }
  return out;
}

async function readPasted(file: File): Promise<Pasted> {
  const name = file.name && file.name !== "image.png" ? file.name : t("Pasted image");
  if (!RASTER.test(file.type))
    throw new Error(t("{0} was not attached: only PNG, JPEG, GIF and WebP images are.", name));
  if (file.size > MAX_PASTED_BYTES)
    throw new Error(
      t("{0} was not attached: it is {1} KB, more than 5 MB.", name, Math.ceil(file.size / 1024)),
    );
  const data = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(t("{0} could not be read from the clipboard.", name)));
    reader.readAsDataURL(file);
  });
  return { name, data };
}
