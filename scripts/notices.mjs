// The third-party notices of what the bundles contain: each npm package esbuild put into them, with its
// version, licence and licence text, written to dist/ThirdPartyNotices.txt (shipped in the VSIX).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The package folders (node_modules/NAME or node_modules/@scope/NAME) among esbuild metafiles' inputs. */
function packagesOf(metafiles) {
  const found = new Set();
  for (const meta of metafiles) {
    for (const input of Object.keys(meta.inputs)) {
      const m = /^(.*?node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (m) found.add(m[1]);
    }
  }
  return [...found].sort();
}

/** Writes the notices file for the packages the builds bundled. */
export function writeNotices(root, metafiles, out, copied = []) {
  const parts = ["Tandem bundles the following third-party packages.", ""];
  for (const dir of [...new Set([...packagesOf(metafiles), ...copied])].sort()) {
    const full = join(root, dir);
    const pkg = JSON.parse(readFileSync(join(full, "package.json"), "utf8"));
    const licence = typeof pkg.license === "string" ? pkg.license : (pkg.license?.type ?? "see the package");
    const file = readdirSync(full).find((f) => /^(licen[cs]e|copying|notice)(\..*)?$/i.test(f));
    parts.push("=".repeat(78), `${pkg.name} ${pkg.version} — ${licence}`, "");
    if (file && existsSync(join(full, file))) parts.push(readFileSync(join(full, file), "utf8").trim(), "");
  }
  writeFileSync(out, `${parts.join("\n")}\n`);
}
