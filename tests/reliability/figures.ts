/**
 * Figures of the reliability tests: each test writes what it measured to
 * `$CDN_FIGURES_DIR/<name>.json` (default: `<tmpdir>/pulumi-cdn-zones-figures`), so the last run's
 * numbers can be read back for docs/reliability.md (`node tests/reliability/print-figures.js`).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export const FIGURES_DIR = process.env.CDN_FIGURES_DIR || path.join(os.tmpdir(), "pulumi-cdn-zones-figures");

export function writeFigures(name: string, figures: Record<string, unknown>): void {
  fs.mkdirSync(FIGURES_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(FIGURES_DIR, `${name}.json`),
    JSON.stringify({ at: new Date().toISOString(), ...figures }, null, 1) + "\n",
  );
}
