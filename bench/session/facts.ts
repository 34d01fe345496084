// Facts an agent can read off a file's text: its line count and where symbols are defined. The plan computes
// its answers with these functions from disk; the scripted policy computes them from the text it sees in its
// window. Pure functions.

export { countLines } from "./session-corpus.ts";

export interface Definition {
	symbol: string;
	/** 1-based line number of the first definition. */
	line: number;
}

const DEFINITION_PATTERNS: readonly RegExp[] = [
	/^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)\s*\(/,
	/^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
	/^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/,
];

/** Top-level-looking definitions of a JavaScript text, first occurrence per symbol, in line order. */
export function findDefinitions(text: string): Definition[] {
	const seen = new Set<string>();
	const out: Definition[] = [];
	const lines = text.split("\n");
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i] as string;
		for (const pattern of DEFINITION_PATTERNS) {
			const symbol = pattern.exec(line)?.[1];
			if (symbol && !seen.has(symbol)) {
				seen.add(symbol);
				out.push({ symbol, line: i + 1 });
			}
		}
	}
	return out;
}

/** Line of the first definition of `symbol` in `text`, or undefined. */
export function definitionLine(text: string, symbol: string): number | undefined {
	return findDefinitions(text).find((d) => d.symbol === symbol)?.line;
}
