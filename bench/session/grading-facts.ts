// The answer key's facts about a file's text: where symbols are defined (line counts come with the corpus,
// session-corpus.ts). The plan computes every expected answer with these. They repeat the agent's own reading
// (bench/session/facts.ts) on purpose: grading shares no helper with the agent it grades, so a bug in how the agent
// reads a file cannot make its wrong answer the expected one (tests/bench/session/agent-imports.test.ts). Pure
// functions.

export interface KeyDefinition {
	symbol: string;
	/** 1-based line number of the first definition. */
	line: number;
}

/** What counts as a definition in the answer key: a function, a class, or a top-level const/let/var. */
const KEY_DEFINITION_PATTERNS: readonly RegExp[] = [
	/^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)\s*\(/,
	/^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
	/^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/,
];

/** Definitions in the answer key's sense, first occurrence per symbol, in line order. */
export function keyDefinitions(text: string): KeyDefinition[] {
	const seen = new Set<string>();
	const out: KeyDefinition[] = [];
	text.split("\n").forEach((line, i) => {
		for (const pattern of KEY_DEFINITION_PATTERNS) {
			const symbol = pattern.exec(line)?.[1];
			if (symbol && !seen.has(symbol)) {
				seen.add(symbol);
				out.push({ symbol, line: i + 1 });
			}
		}
	});
	return out;
}

/** The answer key's line of the first definition of `symbol` in `text`, or undefined. */
export function keyDefinitionLine(text: string, symbol: string): number | undefined {
	return keyDefinitions(text).find((d) => d.symbol === symbol)?.line;
}
