// `npm run l10n`: writes l10n/bundle.l10n.json, the English texts of every translation call in src/ and webview-ui/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { englishBundle } from "./l10n-messages";

const root = join(__dirname, "..");
const { bundle, problems } = englishBundle(root);
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
mkdirSync(join(root, "l10n"), { recursive: true });
writeFileSync(join(root, "l10n/bundle.l10n.json"), JSON.stringify(bundle, null, 2) + "\n");
console.log(`l10n/bundle.l10n.json: ${Object.keys(bundle).length} messages`);
