// README examples generated from tests: a fenced block in README.md that follows the line
// `<!-- example: NAME (TEST FILE) -->` must equal what the test produced. Run the test with
// UPDATE_README=1 to write the block instead (then review the diff), so README cannot drift from
// the real output.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

const README = join(import.meta.dirname, "..", "..", "README.md");

function blockAt(readme: string, name: string): { start: number; end: number } {
	const marker = new RegExp(`<!-- example: ${name} \\([^)]*\\) -->\\n\`\`\`\\w*\\n`);
	const found = marker.exec(readme);
	if (!found) throw new Error(`README.md has no <!-- example: ${name} (...) --> block`);
	const start = found.index + found[0].length;
	const end = readme.indexOf("```", start);
	return { start, end };
}

/** Checks (or, with UPDATE_README=1, writes) README's example `name` as `lines`. */
export function expectReadmeExample(name: string, lines: readonly string[]): void {
	const readme = readFileSync(README, "utf8");
	const { start, end } = blockAt(readme, name);
	const want = `${lines.join("\n")}\n`;
	if (process.env.UPDATE_README === "1") {
		writeFileSync(README, readme.slice(0, start) + want + readme.slice(end));
		return;
	}
	expect(readme.slice(start, end), `README example "${name}" (UPDATE_README=1 rewrites it)`).toBe(want);
}
