// Facts the scripted agent reads off a file's text it sees in its window: its line count and where symbols are
// defined. The answer key has its own (bench/session/grading-facts.ts): grading shares no helper with the agent.
// Pure functions.

/** Lines as a reader counts them: a trailing newline does not start another line. */
export function countLines(text: string): number {
	if (text.length === 0) return 0;
	return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n").length;
}

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
